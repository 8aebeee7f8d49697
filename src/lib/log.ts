import type { LogLevel } from "./env.ts";
import { redact } from "./redact.ts";
import { paint } from "./style.ts";

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3, trace: 4 };

/** Something that accepts text (a stream or a test buffer). */
export interface TextSink {
  write(text: string): void;
}

/** Leveled logger writing to stderr only; every line passes through token redaction. */
export interface Logger {
  readonly level: LogLevel;
  enabled(level: LogLevel): boolean;
  error(msg: string): void;
  warn(msg: string): void;
  info(msg: string): void;
  debug(msg: string): void;
  trace(msg: string): void;
  /** Registers a secret that must never appear in log output. */
  addSecret(secret: string): void;
}

/**
 * Creates a logger at a level writing to a sink (stderr). `secrets` collects what addSecret
 * registers (the run's error renderer masks the same values).
 */
export function createLogger(level: LogLevel, sink: TextSink, color = false, secrets: string[] = []): Logger {
  const emit = (lvl: LogLevel, msg: string) => {
    if (RANK[lvl] > RANK[level]) return;
    const text = redact(msg, secrets);
    const prefix =
      lvl === "info" ? "" : lvl === "warn" ? "Warning: " : lvl === "error" ? "Error: " : `[${lvl}] `;
    const line = color && lvl !== "info" ? `${paint(prefix, "2", "22")}${text}` : `${prefix}${text}`;
    sink.write(`${line}\n`);
  };
  return {
    level,
    enabled: (lvl) => RANK[lvl] <= RANK[level],
    error: (m) => emit("error", m),
    warn: (m) => emit("warn", m),
    info: (m) => emit("info", m),
    debug: (m) => emit("debug", m),
    trace: (m) => emit("trace", m),
    addSecret: (s) => {
      if (s) secrets.push(s);
    },
  };
}
