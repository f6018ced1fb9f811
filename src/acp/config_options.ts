/**
 * A session's config options (ACP `configOptions`): the model, chosen among
 * the ready references `rienda models` lists, and the reasoning level
 * (`off`, `low`, `medium`, `high`). `session/set_config_option` changes what
 * the next prompt uses, as the chat's `/model` and `/thinking` do; that
 * prompt stores the switch.
 *
 * @module
 */

import type { SessionConfigOption, SessionConfigSelectOption } from "@agentclientprotocol/sdk";
import type { InteractiveSession } from "../app/interactive_session.ts";
import { modelRows } from "../app/model_rows.ts";
import { loadCredentials } from "../config/credentials.ts";
import { allowedThinkingLevels, THINKING_OFF } from "../providers/thinking.ts";

/** The ids of the options. */
export const MODEL_OPTION = "model";
export const THINKING_OPTION = "thinking";

/** The options of `conversation` as the next prompt would use them. */
export async function configOptions(
  conversation: InteractiveSession,
  env: (name: string) => string | undefined,
): Promise<SessionConfigOption[]> {
  const state = conversation.state();
  const credentials = await loadCredentials(conversation.paths.credentialsFile);
  const models: SessionConfigSelectOption[] = modelRows(conversation.config, env, credentials)
    // A `provider/*` row stands for any id, which a menu cannot take.
    .filter((row) => row.ready && !row.ref.endsWith("/*"))
    .map((row) => ({ value: row.ref, name: row.ref, description: row.detail }));
  if (state.model !== "" && !models.some((option) => option.value === state.model)) {
    models.unshift({ value: state.model, name: state.model });
  }
  return [
    {
      type: "select",
      id: MODEL_OPTION,
      name: "Model",
      category: "model",
      currentValue: state.model,
      options: models,
    },
    {
      type: "select",
      id: THINKING_OPTION,
      name: "Reasoning",
      category: "thought_level",
      currentValue: state.thinking ?? THINKING_OFF,
      options: allowedThinkingLevels().map((level) => ({ value: level, name: level })),
    },
  ];
}

/**
 * Applies `value` to option `id`; an error message when the option or the
 * value is not one of {@link configOptions}, else null.
 */
export async function setConfigOption(
  conversation: InteractiveSession,
  env: (name: string) => string | undefined,
  id: string,
  value: string,
): Promise<string | null> {
  const option = (await configOptions(conversation, env)).find((option) => option.id === id);
  if (option === undefined) {
    return `unknown config option "${id}" (known: ${MODEL_OPTION}, ${THINKING_OPTION})`;
  }
  const values = option.type === "select"
    ? option.options.flatMap((entry) => "value" in entry ? [entry.value] : [])
    : [];
  if (!values.includes(value)) {
    return `${id}: "${value}" is not one of its values (${values.join(", ")})`;
  }
  if (id === MODEL_OPTION) conversation.setModel(value);
  else conversation.setThinking(value === THINKING_OFF ? null : value);
  return null;
}
