package app.vigie.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.common.utils.Exit;
import org.jboss.logging.Logger;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** A real Kafka broker (KRaft, combined broker and controller) inside the test JVM, with Vigie's topics. */
public class KafkaResource implements QuarkusTestResourceLifecycleManager {
    private static final Logger LOG = Logger.getLogger(KafkaResource.class);
    private static KafkaClusterTestKit cluster;

    public static String bootstrapServers() {
        synchronized (KafkaResource.class) {
            return startIfNeeded();
        }
    }

    private static String startIfNeeded() {
        if (cluster == null) {
            try {
                cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true)
                        .setNumBrokerNodes(1).setNumControllerNodes(1)
                        .setPerServerProperties(Map.of(0, Map.of("offsets.topic.replication.factor", "1",
                                "offsets.topic.num.partitions", "3", "transaction.state.log.replication.factor", "1",
                                "transaction.state.log.min.isr", "1", "group.initial.rebalance.delay.ms", "0")))
                        .build()).build();
                cluster.format();
                cluster.startup();
                cluster.waitForReadyBrokers();
                try (Admin admin = Admin.create(adminProperties())) {
                    admin.createTopics(List.of(new NewTopic("vigie.page-audit.v1", 3, (short) 1),
                            new NewTopic("vigie.page-audit.dlq", 1, (short) 1))).all().get();
                }
                // a broker that fails while stopping must not halt the test JVM (Kafka's default is Runtime.halt)
                Exit.setExitProcedure((code, message) -> LOG.warnf("Kafka asked to exit (%d): %s", code, message));
                Exit.setHaltProcedure((code, message) -> LOG.warnf("Kafka asked to halt (%d): %s", code, message));
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the test Kafka broker", e);
            }
        }
        return cluster.bootstrapServers();
    }

    public static Properties adminProperties() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers());
        return p;
    }

    /**
     * How far {@code group} has committed in {@code topic}: {committed, end}, summed over the topic's partitions
     * (a partition the group never committed counts from 0, so one that nothing was written to counts as done).
     */
    public static long[] committed(Admin admin, String topic, String group) throws Exception {
        Map<TopicPartition, OffsetSpec> latest =
                new HashMap<>();
        admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().forEach(p -> latest.put(
                new TopicPartition(topic, p.partition()),
                OffsetSpec.latest()));
        Map<TopicPartition, OffsetAndMetadata> done =
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        long end = 0;
        long at = 0;
        for (var e : admin.listOffsets(latest).all().get().entrySet()) {
            end += e.getValue().offset();
            var c = done.get(e.getKey());
            at += c == null ? 0 : Math.min(c.offset(), e.getValue().offset());
        }
        return new long[] {at, end};
    }

    @Override
    public Map<String, String> start() {
        return Map.of("vigie.kafka.bootstrap-servers", bootstrapServers());
    }

    /** Closed when the test profile that uses it ends. */
    @Override
    public synchronized void stop() {
        if (cluster != null) {
            try {
                cluster.close();
            } catch (Exception e) {
                LOG.warn("The test Kafka broker did not close cleanly", e);
            }
            cluster = null;
        }
    }
}
