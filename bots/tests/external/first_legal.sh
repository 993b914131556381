#!/bin/sh
# A bot that speaks the protocol correctly and plays the first legal action every time.
while IFS= read -r line; do
    case "$line" in
        '{"type":"hello"'*) echo '{"type":"ready","name":"first legal"}' ;;
        '{"type":"turn"'*) echo '{"type":"play","index":0}' ;;
    esac
done
