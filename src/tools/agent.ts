/**
 * The built-in `agent` tool: hands a task to another agent, which works on
 * it in a fresh context and answers (docs/subagents.md). The tool checks the
 * choice and words the refusals; running the child is the app's
 * {@link Delegation} (without one, as in `rienda tools test agent`, every
 * call is an error result saying so).
 *
 * - Its description lists the agents the model may call, with their
 *   descriptions; an id outside that list is an error result naming them.
 * - Claude Code's `Task` argument `subagent_type` is read as `agent`.
 *
 * @module
 */

import { errorResult, type Tool, type ToolCallContext, type ToolResult } from "./tool.ts";

/** The tool's name, as agent files list it. */
export const AGENT_TOOL_NAME = "agent";

/** An agent the model may delegate to. */
export interface CallableAgent {
  readonly id: string;
  readonly description: string;
}

/** One delegation as the model asked for it. */
export interface DelegationRequest {
  readonly agent: string;
  readonly prompt: string;
  /** A few words saying what the child does (shown to people, the child's session title). */
  readonly description?: string;
}

/** How a run delegates: the agents it may call and the child run behind a call. */
export interface Delegation {
  /** In the order the description lists them. */
  readonly agents: readonly CallableAgent[];
  /** Runs the child on a request whose agent is one of {@link agents}; never throws. */
  run(request: DelegationRequest, context: ToolCallContext): Promise<ToolResult>;
}

const DESCRIPTION = `Hands a task to another agent, which works on it alone and answers.

- The agent starts fresh: it sees only \`prompt\`, never this conversation, so the prompt must say everything it needs (files, goal, what to answer with).
- Its final answer is this tool's result; it does not reach the user unless you pass it on.
- Several \`agent\` calls in one response run at the same time: use that for independent tasks.`;

const PARAMETERS = {
  type: "object",
  properties: {
    agent: { type: "string", description: "The id of the agent to call (one of the list)." },
    prompt: {
      type: "string",
      minLength: 1,
      description: "The whole task: what to do and what to answer with.",
    },
    description: {
      type: "string",
      description: "A few words saying what the agent does, shown while it runs.",
    },
    subagent_type: { type: "string", description: "Another name for `agent`." },
  },
  required: ["prompt"],
  additionalProperties: false,
} as const;

/** The description the model reads: what the tool does and whom it can call. */
export function agentToolDescription(agents: readonly CallableAgent[] | undefined): string {
  if (agents === undefined) return DESCRIPTION;
  if (agents.length === 0) return `${DESCRIPTION}\n\nNo agent can be called from here.`;
  const listed = agents.map((agent) =>
    `- ${agent.id}: ${agent.description === "" ? "(no description)" : agent.description}`
  );
  return `${DESCRIPTION}\n\nThe agents you can call:\n${listed.join("\n")}`;
}

/** The `agent` tool of a run that delegates through `delegation` (none: it cannot). */
export function createAgentTool(delegation?: Delegation): Tool {
  return {
    name: AGENT_TOOL_NAME,
    description: agentToolDescription(delegation?.agents),
    parameters: PARAMETERS,
    concurrent: true,
    execute(args, context) {
      const agent = typeof args.agent === "string"
        ? args.agent
        : typeof args.subagent_type === "string"
        ? args.subagent_type
        : undefined;
      const prompt = typeof args.prompt === "string" ? args.prompt : "";
      const description = typeof args.description === "string" ? args.description : undefined;
      if (delegation === undefined) {
        return Promise.resolve(
          errorResult("this run cannot delegate: the agent tool runs only inside a run"),
        );
      }
      const choices = delegation.agents.map((choice) => choice.id);
      const named = choices.length === 0 ? "none" : choices.join(", ");
      if (agent === undefined) {
        return Promise.resolve(errorResult(`"agent" is required: one of ${named}`));
      }
      if (!choices.includes(agent)) {
        return Promise.resolve(
          errorResult(
            `agent ${
              JSON.stringify(agent)
            } cannot be called from here (the agents you can call: ${named})`,
          ),
        );
      }
      return delegation.run(
        { agent, prompt, ...(description === undefined ? {} : { description }) },
        context,
      );
    },
  };
}
