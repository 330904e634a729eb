#!/bin/sh
# compose's Kafka (server.properties beside this file): the admin's password, read from its secret, goes into the
# JAAS lines of a copy of the configuration that only the broker's account reads; the storage is formatted once, with
# the admin as its first SCRAM user (KRaft keeps SCRAM credentials in its metadata: the other users are added by
# kafka-setup, as the admin). The password is used inside --add-scram's brackets: make it hex or Base64
# (openssl rand -hex 32), without quotes, commas or brackets.
set -eu
password="$(cat /run/secrets/kafka_admin_password)"
case "$password" in
    *[\"\',\[\]\ ]* | '') echo "kafka_admin_password: empty, or has a quote, comma, bracket or space" >&2; exit 2 ;;
esac
umask 077
conf=/tmp/vigie-kafka.properties
{
    cat /etc/vigie/kafka/server.properties
    echo "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\" password=\"$password\";"
    echo "listener.name.controller.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" password=\"$password\" user_admin=\"$password\";"
} > "$conf"
if [ ! -f /var/lib/kafka/data/meta.properties ]; then
    /opt/kafka/bin/kafka-storage.sh format --config "$conf" --cluster-id "$(/opt/kafka/bin/kafka-storage.sh random-uuid)" \
        --add-scram "SCRAM-SHA-512=[name=admin,password=$password]"
fi
exec /opt/kafka/bin/kafka-server-start.sh "$conf"
