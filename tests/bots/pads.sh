# A Botzone bot run a program a turn that pads: its answer, a big globaldata, lines of
# output after its answer (a thousand blank lines), all written before it reads its (growing) history.
printf '{"response":"PASS","globaldata":"'
head -c "${1:-300000}" /dev/zero | tr '\0' x
printf '"}\n'
head -c 1000 /dev/zero | tr '\0' '\n'
head -n 1 > /dev/null
