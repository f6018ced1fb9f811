/**
 * Reasoning levels (`--thinking LEVEL`) and what each wire protocol sends for
 * them (docs/providers.md, "Reasoning"):
 *
 * - chat completions: `reasoning_effort: LEVEL`;
 * - responses: `reasoning: {effort: LEVEL, summary: "auto"}`;
 * - anthropic: a thinking budget of {@link ANTHROPIC_THINKING_BUDGETS} tokens
 *   (or the level itself when it is a token count), temperature dropped.
 *
 * @module
 */

/** The levels every model accepts. */
export const STANDARD_THINKING_LEVELS: readonly string[] = ["low", "medium", "high"];

/** The level that means "no reasoning" (the default). */
export const THINKING_OFF = "off";

/**
 * Anthropic thinking budgets in tokens, by level. `minimal` and `xhigh` serve
 * models that declare those levels in `thinking_levels`.
 */
export const ANTHROPIC_THINKING_BUDGETS = {
  minimal: 1024,
  low: 2048,
  medium: 4096,
  high: 16384,
  xhigh: 32768,
} as const;

/** Anthropic's smallest accepted `budget_tokens`. */
export const MIN_ANTHROPIC_THINKING_BUDGET = 1024;

const TOKEN_COUNT_REGEXP = /^[1-9][0-9]*$/;

/**
 * The levels `--thinking` accepts for a model: `off`, the standard three,
 * then the model's declared `thinking_levels`, without repeats.
 *
 * @example
 * ```ts
 * allowedThinkingLevels(["minimal", "high"]); // ["off", "low", "medium", "high", "minimal"]
 * ```
 */
export function allowedThinkingLevels(declared: readonly string[] = []): string[] {
  return [...new Set([THINKING_OFF, ...STANDARD_THINKING_LEVELS, ...declared])];
}

/**
 * The Anthropic `budget_tokens` for a level: its entry in
 * {@link ANTHROPIC_THINKING_BUDGETS}, or the level itself when it is a token
 * count of at least 1024; undefined otherwise.
 *
 * @example
 * ```ts
 * anthropicThinkingBudget("high");  // 16384
 * anthropicThinkingBudget("24000"); // 24000
 * anthropicThinkingBudget("turbo"); // undefined
 * ```
 */
export function anthropicThinkingBudget(level: string): number | undefined {
  const budgets: Readonly<Record<string, number>> = ANTHROPIC_THINKING_BUDGETS;
  if (Object.hasOwn(budgets, level)) return budgets[level];
  if (!TOKEN_COUNT_REGEXP.test(level)) return undefined;
  const tokens = Number(level);
  return Number.isSafeInteger(tokens) && tokens >= MIN_ANTHROPIC_THINKING_BUDGET
    ? tokens
    : undefined;
}
