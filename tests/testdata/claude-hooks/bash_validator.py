#!/usr/bin/env python3
"""A PreToolUse hook for the Bash tool: steers the model from grep and find to rg.

Reads the hook's JSON from standard input. Exit 0 lets the command run; exit 2
blocks it, with one reason per line on standard error for the model to read;
exit 1 is an error of the hook itself.
"""

import json
import re
import sys

RULES = [
    (r"^\s*grep\b", "grep: run 'rg PATTERN' instead, it is faster and skips ignored files"),
    (r"^\s*find\s+\S+\s+-name\b", "find -name: run 'rg --files -g GLOB' instead"),
]


def reasons(command):
    return [message for pattern, message in RULES if re.search(pattern, command)]


def main():
    try:
        event = json.load(sys.stdin)
    except json.JSONDecodeError as error:
        print(f"bash_validator: stdin is not JSON: {error}", file=sys.stderr)
        return 1
    if event.get("tool_name") != "Bash":
        return 0
    command = event.get("tool_input", {}).get("command", "")
    found = reasons(command)
    if not found:
        return 0
    for reason in found:
        print(f"- {reason}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
