# A Botzone bot whose response is a PASS padded with spaces past the limit.
printf '{"response":"PASS'
head -c 5000 /dev/zero | tr '\0' ' '
printf '"}\n'
