#!/bin/sh
# A SessionStart hook: adds a short house style to what the model reads at the start.
cat <<'JSON'
{
  "hookSpecificOutput": {
    "hookEventName": "SessionStart",
    "additionalContext": "House style: answer in plain sentences, name every file you change, and end with one line saying what to check next."
  }
}
JSON
