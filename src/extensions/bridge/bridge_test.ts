import assert from "node:assert/strict";
import { join } from "node:path";
import { ExtensionHost } from "../host.ts";
import {
  makeContext,
  makeSandbox,
  returned,
  runTool,
  thrown,
} from "../../../tests/_testing/extension_fixtures.ts";

const sandbox = await makeSandbox();
const { workdir } = sandbox;

Deno.test("ctx values and ctx.file, ctx.env, ctx.log, ctx.notify, ctx.confirm, ctx.sleep", async (t) => {
  using host = new ExtensionHost();
  const context = makeContext(sandbox);

  await t.step("ctx.workdir, ctx.session and ctx.agent carry the run's values", async () => {
    const body = `return { workdir: ctx.workdir, session: ctx.session, agent: ctx.agent };`;
    assert.deepEqual(returned(await runTool(host, context, body)), {
      workdir,
      session: { id: "01JTESTSESSION", agentId: "coder", modelId: "openai/gpt-4o", workdir },
      agent: {
        description: "A careful agent.",
        model: "openai/gpt-4o",
        config: { level: 2 },
        tools: [],
        hooks: [],
        name: "coder",
        systemPrompt: "You are careful.",
      },
    });
  });

  await t.step("ctx.config is the whole document, read-only", async () => {
    const body = `"use strict"; let error = "none";
      try { ctx.config.config["word-count"].min_length = 9; } catch (e) { error = e.name; }
      return [ctx.config.default_model, ctx.config.config["word-count"].min_length, error];`;
    assert.deepEqual(returned(await runTool(host, context, body)), [
      "openai/gpt-4o",
      3,
      "TypeError",
    ]);
  });

  await t.step(
    "ctx.file.write() creates parents and ctx.file.read() returns the text",
    async () => {
      const body =
        `ctx.file.write("a/b/notes.txt", "héllo\\n"); ctx.file.write("a/b/notes.txt", "more", { append: true });
      return ctx.file.read("a/b/notes.txt");`;
      assert.equal(returned(await runTool(host, context, body)), "héllo\nmore");
      assert.equal(await Deno.readTextFile(join(workdir, "a/b/notes.txt")), "héllo\nmore");
    },
  );

  await t.step("ctx.file.write() truncates by default and accepts absolute paths", async () => {
    const path = join(sandbox.root, "outside.txt");
    const body = `ctx.file.write(${JSON.stringify(path)}, "long text"); ctx.file.write(${
      JSON.stringify(path)
    }, "short");
      return ctx.file.read(${JSON.stringify(path)});`;
    assert.equal(returned(await runTool(host, context, body)), "short");
  });

  await t.step("ctx.file.read() replaces invalid UTF-8 instead of failing", async () => {
    await Deno.writeFile(join(workdir, "bad.bin"), new Uint8Array([0x61, 0xff, 0x62]));
    assert.equal(
      returned(await runTool(host, context, `return ctx.file.read("bad.bin");`)),
      "a\uFFFDb",
    );
  });

  await t.step(
    "ctx.file.read() of a missing file is a catchable error naming the path",
    async () => {
      const body =
        `try { ctx.file.read("notes.txt"); } catch (e) { return [e instanceof Error, e.message]; }`;
      assert.deepEqual(returned(await runTool(host, context, body)), [
        true,
        "ctx.file.read: no such file: notes.txt",
      ]);
    },
  );

  await t.step(
    "ctx.file.read() of a directory and with an unknown encoding are errors",
    async () => {
      assert.equal(
        thrown(await runTool(host, context, `ctx.file.read("a");`)).message,
        "ctx.file.read: is a directory: a",
      );
      const error = thrown(
        await runTool(host, context, `ctx.file.read("bad.bin", { encoding: "latin1" });`),
      );
      assert.deepEqual([error.name, error.message], [
        "TypeError",
        'ctx.file.read: encoding must be "utf8" (found "latin1")',
      ]);
    },
  );

  await t.step("ctx.file functions raise TypeErrors for wrong argument types", async () => {
    const cases: [string, string][] = [
      [`ctx.file.read(42)`, "ctx.file.read: path must be a string (found number)"],
      [`ctx.file.read()`, "ctx.file.read: path must be a string (found undefined)"],
      [`ctx.file.write("x", {})`, "ctx.file.write: data must be a string (found object)"],
      [
        `ctx.file.write("x", "y", { append: "yes" })`,
        "ctx.file.write: append must be a boolean (found string)",
      ],
      [`ctx.file.exists(null)`, "ctx.file.exists: path must be a string (found null)"],
      [`ctx.file.list(".", "deep")`, "ctx.file.list: options must be an object (found string)"],
      [`ctx.env.get(1)`, "ctx.env.get: name must be a string (found number)"],
      [`ctx.log(3)`, "ctx.log: text must be a string (found number)"],
      [`ctx.notify("hi")`, "ctx.notify: expected { title, body } (found string)"],
      [`ctx.notify({ title: 1 })`, "ctx.notify: title must be a string (found number)"],
      [`ctx.sleep("1")`, "ctx.sleep: ms must be a non-negative number (found string)"],
      [
        `ctx.confirm("ok?")`,
        "ctx.confirm: the question must be an object { title, body } (found string)",
      ],
    ];
    for (const [call, message] of cases) {
      const body =
        `try { ${call}; } catch (e) { return [e instanceof TypeError, e.message]; } return "no error";`;
      assert.deepEqual(returned(await runTool(host, context, body)), [true, message], call);
    }
  });

  await t.step("ctx.file.exists() is true for files and directories, false otherwise", async () => {
    const body =
      `return [ctx.file.exists("a"), ctx.file.exists("a/b/notes.txt"), ctx.file.exists("nope"),
      ctx.file.exists("a/b/notes.txt/below")];`;
    assert.deepEqual(returned(await runTool(host, context, body)), [true, true, false, false]);
  });

  await t.step("ctx.file.list() returns sorted workspace-relative entries", async () => {
    const body = `return ctx.file.list("a");`;
    assert.deepEqual(returned(await runTool(host, context, body)), [
      { name: "b", path: "a/b", isDir: true },
      { name: "notes.txt", path: "a/b/notes.txt", isDir: false },
    ]);
    const shallow =
      `return ctx.file.list(".", { recursive: false }).map(function (e) { return e.path; });`;
    assert.deepEqual(returned(await runTool(host, context, shallow)), ["a", "bad.bin"]);
    const missing = thrown(await runTool(host, context, `ctx.file.list("nope");`));
    assert.equal(missing.message, "ctx.file.list: no such file: nope");
  });

  await t.step("ctx.env.get() returns the value, or null when unset", async () => {
    Deno.env.set("RIENDA_EXT_TEST_VALUE", "v1");
    const body =
      `return [ctx.env.get("RIENDA_EXT_TEST_VALUE"), ctx.env.get("RIENDA_EXT_TEST_UNSET")];`;
    assert.deepEqual(returned(await runTool(host, context, body)), ["v1", null]);
  });

  await t.step("ctx.log() streams each text live, ending lines", async () => {
    const output: string[] = [];
    const body = `ctx.log("one"); ctx.log("two\\n"); return "done";`;
    assert.equal(
      returned(await runTool(host, context, body, { output: (text) => output.push(text) })),
      "done",
    );
    assert.deepEqual(output, ["one\n", "two\n"]);
  });

  await t.step("ctx.notify() reaches the front end's callback", async () => {
    await runTool(
      host,
      context,
      `ctx.notify({ title: "rienda", body: "run finished" }); ctx.notify({ body: "b" });`,
    );
    assert.deepEqual(context.notifications, [{ title: "rienda", body: "run finished" }, {
      title: "",
      body: "b",
    }]);
  });

  await t.step("ctx.confirm() is false without a person", async () => {
    assert.equal(
      returned(
        await runTool(host, context, `return ctx.confirm({ title: "Publish", body: "Push?" });`),
      ),
      false,
    );
  });

  await t.step("ctx.sleep() waits, and returns early when the run is interrupted", async () => {
    const started = performance.now();
    await runTool(host, context, `ctx.sleep(60); return 1;`);
    assert.ok(performance.now() - started >= 55);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 40);
    const interrupted = performance.now();
    const result = await runTool(host, context, `ctx.sleep(10000); return 1;`, {
      signal: controller.signal,
    });
    assert.equal(result.kind === "stopped" && result.reason, "interrupted");
    assert.ok(performance.now() - interrupted < 1000);
  });

  await t.step("ctx.cache and ctx.store keep text across invocations", async () => {
    const write =
      `ctx.cache.set("k", "cached", 60); ctx.store.set("weird name/..", "stored"); return 1;`;
    await runTool(host, context, write);
    const read = `return [ctx.cache.get("k"), ctx.cache.has("k"), ctx.store.get("weird name/.."),
      ctx.cache.get("absent"), ctx.store.del("weird name/.."), ctx.store.has("weird name/..")];`;
    assert.deepEqual(returned(await runTool(host, context, read)), [
      "cached",
      true,
      "stored",
      null,
      true,
      false,
    ]);
    const bad = thrown(await runTool(host, context, `ctx.cache.set("k", "v", -1);`));
    assert.equal(
      bad.message,
      "ctx.cache.set: ttl_seconds must be a positive number (found number)",
    );
  });
});

Deno.test("ctx.confirm() follows auto-approve and the front end's answer", async (t) => {
  using host = new ExtensionHost();
  await t.step("auto-approve answers true without asking", async () => {
    const context = makeContext(sandbox, { autoApprove: true });
    assert.equal(
      returned(await runTool(host, context, `return ctx.confirm({ title: "t", body: "b" });`)),
      true,
    );
  });
  await t.step("a person's answer is returned", async () => {
    const asked: string[] = [];
    const context = makeContext(sandbox, {
      confirm: (question) => {
        asked.push(`${question.title}|${question.body}`);
        return Promise.resolve(asked.length === 1);
      },
    });
    const body =
      `return [ctx.confirm({ title: "Publish", body: "Push?" }), ctx.confirm({ title: "Again" })];`;
    assert.deepEqual(returned(await runTool(host, context, body)), [true, false]);
    assert.deepEqual(asked, ["Publish|Push?", "Again|"]);
  });
});
