/**
 * Names that say their value is a secret: credential headers, secret-named
 * variables (docs/security.md, "What is masked").
 *
 * @module
 */

const CREDENTIAL_HEADER_REGEXP =
  /^(authorization|proxy-authorization|cookie)$|key|token|secret|auth|session|password/i;

/** Whether a header of this name carries a credential (`Authorization`, `x-api-key`, `Cookie`, …). */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER_REGEXP.test(name);
}

/** A variable name that says its value is a secret (`GITHUB_TOKEN`, `DB_PASSWORD`, `API_KEY`). */
const SECRET_NAME_REGEXP = /TOKEN|SECRET|PASSWORD|PASSWD|KEY|CREDENTIAL|AUTH/i;

/** Whether the value of variable `name` is to be treated as a secret. */
export function isSecretVariable(name: string): boolean {
  return SECRET_NAME_REGEXP.test(name);
}

/**
 * A value of a secret-named variable of the environment that is not a
 * secret: a path (`SSH_AUTH_SOCK`, `XAUTHORITY`), a number, or words.
 */
const NOT_SECRET_VALUE_REGEXP = /^(?:[/~.]|[A-Za-z]:[\\/]|\d+$|true$|false$)|\s/i;

/**
 * Whether environment variable `name` holds a secret: a secret-like name
 * and a value that is not a path, a number or words.
 */
export function isSecretEnvironmentVariable(name: string, value: string): boolean {
  return isSecretVariable(name) && !NOT_SECRET_VALUE_REGEXP.test(value.trim());
}
