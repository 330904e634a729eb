package app.vigie.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.sim.Simulation;

/**
 * The audit logs of several simulated deployments of the reference runtime, with the faults that end in reads (so
 * they leak), each deployment's nodes renamed so that their streams spread over a topic's partitions. Lines are
 * interleaved across streams as a fleet would send them, each stream's in its own order.
 */
public final class Fleet {
    private final List<String> lines;
    private final long leakingResponses;

    private Fleet(List<String> lines, long leakingResponses) {
        this.lines = lines;
        this.leakingResponses = leakingResponses;
    }

    /** {@code deployments} deployments of {@code requests} requests each, named {@code prefix-dN}. */
    public static Fleet of(String prefix, int deployments, int requests, long seed) {
        List<List<String>> logs = new ArrayList<>();
        long leaking = 0;
        for (int d = 0; d < deployments; d++) {
            String name = prefix + "-d" + d;
            List<String> log = new ArrayList<>();
            Simulation.Summary s = Simulation.run(new Simulation.Options(Simulation.Scenario.INCIDENT_2026, 6,
                    requests, Fault.endingInReads(), Set.of(), seed + d, name, 0.15), line -> log.add(
                            line.replace("\"stream\":\"sim/", "\"stream\":\"" + name + "/")), null);
            // leaked_responses (api.md): delivered responses that carried another tenant's tokens
            leaking += s.truth().readers().values().stream().filter(r -> r.delivered() && r.tokensByVictim()
                    .keySet().stream().anyMatch(v -> !r.victimTenant(v).equals(r.tenant()))).count();
            logs.add(log);
        }
        List<String> all = new ArrayList<>();
        int[] at = new int[logs.size()];
        boolean more = true;
        while (more) {
            more = false;
            for (int d = 0; d < logs.size(); d++) {
                List<String> log = logs.get(d);
                for (int k = 0; k < 50 && at[d] < log.size(); k++) {
                    all.add(log.get(at[d]++));
                }
                more |= at[d] < log.size();
            }
        }
        return new Fleet(all, leaking);
    }

    public List<String> lines() {
        return lines;
    }

    /** What the ground truth says the incidents must count as leaked responses, over all deployments. */
    public long leakingResponses() {
        return leakingResponses;
    }

    /** The stream of a line (the record key the runtime's Kafka sink uses). */
    public static String streamOf(String line) {
        int i = line.indexOf("\"stream\":\"") + 10;
        return line.substring(i, line.indexOf('"', i));
    }

    /**
     * Produces every line to {@code topic}, keyed by stream, at about {@code perSecond} records a second; returns
     * when every record is acknowledged.
     */
    public void produce(String bootstrap, String topic, int perSecond) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("linger.ms", "5");
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        int slice = Math.max(1, perSecond / 20);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            List<Future<RecordMetadata>> sent = new ArrayList<>(lines.size());
            long start = System.nanoTime();
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                sent.add(producer.send(new ProducerRecord<>(topic, streamOf(line), line)));
                if ((i + 1) % slice == 0) {
                    long due = start + (long) ((i + 1) * 1e9 / perSecond);
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                }
            }
            for (Future<RecordMetadata> f : sent) {
                f.get();
            }
        }
    }
}
