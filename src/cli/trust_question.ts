/**
 * The chat's one question about an undecided project that has agent files
 * (docs/security.md, "Project trust"): asked on the chat's first start there,
 * the answer recorded either way (Esc leaves it undecided, to ask again).
 * Deciding needs no agent file parsed: the folders are listed, nothing more,
 * so the editor still draws at once.
 *
 * @module
 */

import { relative, resolve } from "node:path";
import { agentFileNames, agentSources } from "../agents/agent_sources.ts";
import { resolvePaths } from "../config/paths.ts";
import { saveTrustDecision } from "../config/trust.ts";
import type { Io } from "../ui/io.ts";
import type { Question } from "../ui/interactive/backend.ts";
import { errorMessage } from "../base/unknown.ts";

/** How the person answered (`ui/interactive/start_question.ts`). */
export type TrustAnswer = "yes" | "no" | "later" | "quit";

/** The question, and what to do with its answer. */
export interface TrustQuestion {
  readonly question: Question;
  /** Records the answer; the line to show, or null. */
  readonly answer: (answer: TrustAnswer) => Promise<string | null>;
}

/** The most files the question names. */
const MAX_NAMED_FILES = 6;

/**
 * The question for the project of the chat's workspace, or null when there
 * is nothing to ask: decided already, no agent files, or trust.json broken
 * (the runs say so). Never throws: the chat reports a bad workspace itself.
 */
export async function trustQuestionFor(
  io: Io,
  flags: { readonly config?: string | undefined; readonly workdir?: string | undefined },
): Promise<TrustQuestion | null> {
  try {
    const paths = resolvePaths(io.env, flags.config === undefined ? {} : { config: flags.config });
    const sources = await agentSources(paths, resolve(io.cwd, flags.workdir ?? "."));
    const project = sources.find((source) => source.project !== undefined)?.project;
    if (project === undefined || project.trust !== "undecided" || project.trustProblem) return null;
    const files: string[] = [];
    for (const source of sources) {
      if (source.project === undefined) continue;
      const names = await agentFileNames(source).catch((): string[] => []);
      files.push(...names.sort().map((name) => relative(project.root, `${source.dir}/${name}`)));
    }
    if (files.length === 0) return null;
    const named = files.length <= MAX_NAMED_FILES
      ? files.join(", ")
      : `${files.slice(0, MAX_NAMED_FILES - 1).join(", ")} and ${
        files.length - MAX_NAMED_FILES + 1
      } more`;
    return {
      question: {
        title: `Trust the agent files of ${project.realRoot}?`,
        body: `${named}\n` +
          "Trusted, they may replace the built-in default and your home agents;\n" +
          "until then they run only by an explicit -a ID. Either way they never\n" +
          "loosen your hooks.",
      },
      async answer(answer) {
        if (answer !== "yes" && answer !== "no") return null;
        try {
          await saveTrustDecision(paths.trustFile, project.realRoot, answer === "yes");
        } catch (error) {
          return `rienda: ${errorMessage(error)}`;
        }
        return answer === "yes"
          ? `trusted ${project.realRoot}`
          : `not trusted ${project.realRoot} (rienda trust changes it)`;
      },
    };
  } catch {
    return null;
  }
}
