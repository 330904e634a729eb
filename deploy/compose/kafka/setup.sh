#!/bin/sh
# compose's Kafka, once it is up, as the admin (idempotent, at every start): the topics, the SCRAM users with the
# passwords of their secrets (a changed file takes effect), and the ACLs of deploy/kubernetes/kafka/users.yaml:
# vigie-intake reads the audit log and the runtimes' own topics vigie.page-audit.rt-* (group vigie-intake) and
# writes the dead-letter topic, vigie-alerts writes the alerts topic, inference-runtime writes the audit log; nothing
# more.
set -eu
umask 077
bin=/opt/kafka/bin
admin=/tmp/vigie-kafka-admin.properties
{
    echo "security.protocol=SASL_PLAINTEXT"
    echo "sasl.mechanism=SCRAM-SHA-512"
    echo "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\" password=\"$(cat /run/secrets/kafka_admin_password)\";"
} > "$admin"
for t in vigie.page-audit.v1:12 vigie.page-audit.dlq:3 vigie.customer-alerts.v1:6; do
    "$bin/kafka-topics.sh" --bootstrap-server kafka:9092 --command-config "$admin" --create --if-not-exists \
        --topic "${t%%:*}" --partitions "${t##*:}" --replication-factor 1
done
for u in vigie-intake:kafka_intake_password vigie-alerts:kafka_alerts_password inference-runtime:kafka_runtime_password; do
    password="$(cat "/run/secrets/${u##*:}")"
    case "$password" in
        *[\"\',\[\]\ =]* | '') echo "${u##*:}: empty, or has a quote, comma, bracket, equals sign or space" >&2; exit 2 ;;
    esac
    "$bin/kafka-configs.sh" --bootstrap-server kafka:9092 --command-config "$admin" --alter --entity-type users \
        --entity-name "${u%%:*}" --add-config "SCRAM-SHA-512=[password=$password]"
done
acl() { "$bin/kafka-acls.sh" --bootstrap-server kafka:9092 --command-config "$admin" --add --force "$@"; }
acl --allow-principal User:vigie-intake --operation Read --operation Describe --topic vigie.page-audit.v1
acl --allow-principal User:vigie-intake --operation Read --operation Describe --topic vigie.page-audit.rt- --resource-pattern-type prefixed
acl --allow-principal User:vigie-intake --operation Read --group vigie-intake
acl --allow-principal User:vigie-intake --operation Write --operation Describe --topic vigie.page-audit.dlq
acl --allow-principal User:vigie-alerts --operation Write --operation Describe --topic vigie.customer-alerts.v1
acl --allow-principal User:inference-runtime --operation Write --operation Describe --topic vigie.page-audit.v1
