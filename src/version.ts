/** The rienda version, as printed by `rienda --version` and sent as `User-Agent: rienda/<version>`. */
export const VERSION = "0.1.0";
