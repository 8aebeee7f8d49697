import pkg from "../../package.json" with { type: "json" };

/** The CLI's own version, embedded at build time from package.json. */
export const VERSION: string = pkg.version;
