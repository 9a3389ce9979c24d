# A long-running Botzone bot that answers PASS without end and never reads its input.
while :; do
    echo '{"response":"PASS"}'
    echo '>>>BOTZONE_REQUEST_KEEP_RUNNING<<<'
done
