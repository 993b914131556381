#!/bin/sh
# A bot that greets correctly and then fails every move in the way its argument names:
#   sleep      thinks far past any time limit
#   exit       exits with status 3
#   garbage    writes a line that is not the protocol
#   flood      writes 100 KB without a line break
#   illegal    answers an index past the legal list
#   nowhere    answers a placement far from the board
#   mute       never answers hello
#   chatter    answers its first move, then writes 2 MB of short lines between moves
fault=$1
while IFS= read -r line; do
    case "$line" in
        '{"type":"hello"'*)
            [ "$fault" = mute ] && sleep 30
            echo '{"type":"ready"}' ;;
        '{"type":"turn"'*)
            case "$fault" in
                sleep) sleep 30 ;;
                exit) exit 3 ;;
                garbage) echo 'I think I will play the city' ;;
                flood) head -c 100000 /dev/zero | tr '\0' x; sleep 30 ;;
                illegal) echo '{"type":"play","index":100000}' ;;
                nowhere) echo '{"type":"play","action":{"action":"place","pos":{"x":40,"y":40},"rotation":0}}' ;;
                chatter) echo '{"type":"play","index":0}'; yes x | head -c 2000000 ;;
            esac ;;
    esac
done
