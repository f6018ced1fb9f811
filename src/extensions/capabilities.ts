/**
 * An extension's effective grant: what it declares in its module, narrowed by
 * `config.yaml` (docs/extending.md, "Capabilities").
 *
 * - Undeclared: full access (extensions are trusted), unless
 *   `extensions.require_capabilities` is true: then nothing at all.
 * - `extensions.<name>.capabilities` in `config.yaml` narrows the grant: a
 *   request must pass the declaration and the configured grant. For an
 *   undeclared extension, it is the grant (also under `require_capabilities`).
 *
 * @module
 */

import {
  type CapabilitySet,
  describeCapabilitySet,
  parseCapabilitySet,
} from "../sandbox/capability_set.ts";

/** What `config.yaml` says about extensions' capabilities. */
export interface CapabilityPolicy {
  /** `extensions.require_capabilities`: undeclared extensions get nothing. */
  readonly requireCapabilities: boolean;
  /** `extensions.<name>.capabilities`, by extension name (a tool and a hook may share one). */
  readonly grants: Readonly<Record<string, CapabilitySet>>;
}

/** Where a layer of a grant comes from, which errors name along with the fix. */
export type GrantSource = "declared" | "config" | "required";

/** One set a request must pass. */
export interface GrantLayer {
  readonly source: GrantSource;
  readonly set: CapabilitySet;
}

/** An extension's effective grant: no layer is full access. */
export interface Grant {
  readonly kind: "tool" | "hook";
  readonly name: string;
  /** Its `index.js`, named in the fix of a denial. */
  readonly path: string;
  readonly layers: readonly GrantLayer[];
}

/** The grant of a call made without one (unit tests, fixtures): full access. */
export const FULL_ACCESS: Grant = { kind: "tool", name: "", path: "", layers: [] };

const NOTHING: CapabilitySet = parseCapabilitySet({}).set;

/** What grants come from: the extension and its declaration. */
export interface GrantedExtension {
  readonly kind: "tool" | "hook";
  readonly name: string;
  readonly path: string;
  /** Absent: undeclared. */
  readonly capabilities?: CapabilitySet;
}

/** The effective grant of `extension` under `policy` (see the module doc). */
export function grantOf(extension: GrantedExtension, policy: CapabilityPolicy | undefined): Grant {
  const layers: GrantLayer[] = [];
  const configured = policy === undefined
    ? undefined
    : Object.hasOwn(policy.grants, extension.name)
    ? policy.grants[extension.name]
    : undefined;
  if (extension.capabilities !== undefined) {
    layers.push({ source: "declared", set: extension.capabilities });
  }
  if (configured !== undefined) layers.push({ source: "config", set: configured });
  if (layers.length === 0 && policy?.requireCapabilities === true) {
    layers.push({ source: "required", set: NOTHING });
  }
  return { kind: extension.kind, name: extension.name, path: extension.path, layers };
}

/** How listings show a grant: `full access`, the declared set, and what config.yaml narrows. */
export function describeGrant(grant: Grant): string {
  if (grant.layers.length === 0) return "full access";
  return grant.layers.map((layer) => {
    switch (layer.source) {
      case "declared":
        return describeCapabilitySet(layer.set);
      case "config":
        return grant.layers.length === 1
          ? `undeclared, config.yaml grants: ${describeCapabilitySet(layer.set)}`
          : `narrowed by config.yaml to: ${describeCapabilitySet(layer.set)}`;
      case "required":
        return "none (undeclared, and config.yaml sets extensions.require_capabilities)";
      default: {
        const never: never = layer.source;
        throw new Error(`unknown source ${String(never)}`);
      }
    }
  }).join(" | ");
}
