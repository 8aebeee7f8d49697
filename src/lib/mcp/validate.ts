/**
 * Checks tool arguments against the tools' own JSON Schemas (the small subset they use: objects of
 * strings, integers with bounds, booleans, string arrays, enums and nullable strings). A mismatch is
 * a ToolArgumentError naming the argument (an isError result), before any command runs.
 */
import { type ArgSchema, ToolArgumentError, type ToolArgs } from "./tools.ts";

type Prop = Record<string, unknown>;

function typeOk(type: unknown, value: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => {
    if (t === "string") return typeof value === "string";
    if (t === "integer") return typeof value === "number" && Number.isSafeInteger(value);
    if (t === "boolean") return typeof value === "boolean";
    if (t === "null") return value === null;
    if (t === "array") return Array.isArray(value);
    return false;
  });
}

function checkProp(prop: Prop, value: unknown): string | undefined {
  if (Array.isArray(prop.enum)) {
    return prop.enum.includes(value) ? undefined : `must be one of ${prop.enum.join(", ")}`;
  }
  if (!typeOk(prop.type, value)) return `must be ${[prop.type].flat().join(" or ")}`;
  if (typeof value === "number") {
    if (typeof prop.minimum === "number" && value < prop.minimum) return `must be at least ${prop.minimum}`;
    if (typeof prop.maximum === "number" && value > prop.maximum) return `must be at most ${prop.maximum}`;
  }
  if (Array.isArray(value)) {
    if (typeof prop.minItems === "number" && value.length < prop.minItems) return "must not be empty";
    if (!value.every((v) => typeof v === "string")) return "must be an array of strings";
  }
  return undefined;
}

/** The arguments when they fit the schema; throws a ToolArgumentError otherwise. */
export function validateArgs(schema: ArgSchema, raw: unknown, tool: string): ToolArgs {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ToolArgumentError(`${tool}: arguments must be an object`);
  }
  const args = raw as ToolArgs;
  for (const key of Object.keys(args)) {
    if (!Object.hasOwn(schema.properties, key)) {
      const known = Object.keys(schema.properties).join(", ");
      throw new ToolArgumentError(`${tool}: unknown argument '${key}' (known: ${known})`);
    }
  }
  for (const key of schema.required ?? []) {
    if (args[key] === undefined) throw new ToolArgumentError(`${tool}: '${key}' is required`);
  }
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined) continue;
    const problem = checkProp(schema.properties[key] as Prop, value);
    if (problem) throw new ToolArgumentError(`${tool}: '${key}' ${problem}`);
  }
  return args;
}
