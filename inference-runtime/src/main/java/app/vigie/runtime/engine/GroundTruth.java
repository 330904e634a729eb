package app.vigie.runtime.engine;

import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What responses actually carried, from the toy model's slots (who wrote each token a request attended), never from
 * the audit log: for each reader, the positions it attended that another request wrote, per victim.
 */
public final class GroundTruth {
    /** One reader's foreign positions, per victim request name. */
    public static final class Reader {
        final String tenant;
        final Map<String, BitSet> byVictim = new TreeMap<>();
        final Map<String, String> victimTenant = new TreeMap<>();
        boolean delivered;

        Reader(String tenant) {
            this.tenant = tenant;
        }

        public String tenant() {
            return tenant;
        }

        public boolean delivered() {
            return delivered;
        }

        /** Foreign positions per victim. */
        public Map<String, Integer> tokensByVictim() {
            Map<String, Integer> out = new TreeMap<>();
            byVictim.forEach((v, b) -> out.put(v, b.cardinality()));
            return out;
        }

        public String victimTenant(String victim) {
            return victimTenant.get(victim);
        }
    }

    private final Map<String, Reader> readers = new LinkedHashMap<>();

    /**
     * What the log can tell of one reader (spec 1.3, amendment 3), per victim request name: positions whose origin at
     * the sender's XFER_SEND was the victim ({@code certain}; with a pushed transfer, what was carried), and positions
     * the victim wrote on the sender while a pulled transfer was reading them ({@code possible}: carried or not).
     */
    public static final class Labels {
        final String tenant;
        final Map<String, BitSet> certain = new TreeMap<>();
        final Map<String, BitSet> possible = new TreeMap<>();
        final Map<String, String> victimTenant = new TreeMap<>();
        boolean delivered;

        Labels(String tenant) {
            this.tenant = tenant;
        }

        public String tenant() {
            return tenant;
        }

        public Map<String, BitSet> certain() {
            return certain;
        }

        public Map<String, BitSet> possible() {
            return possible;
        }

        public String victimTenant(String victim) {
            return victimTenant.get(victim);
        }

        public boolean delivered() {
            return delivered;
        }
    }

    private final Map<String, Labels> labels = new LinkedHashMap<>();

    void certain(Request reader, Request victim, int position) {
        label(reader, victim).certain.computeIfAbsent(victim.name(), k -> new BitSet()).set(position);
    }

    void possible(Request reader, Request victim, int position) {
        label(reader, victim).possible.computeIfAbsent(victim.name(), k -> new BitSet()).set(position);
    }

    private Labels label(Request reader, Request victim) {
        Labels l = labels.computeIfAbsent(reader.name(), k -> new Labels(reader.tenant()));
        l.victimTenant.put(victim.name(), victim.tenant());
        return l;
    }

    /** Per reader name, what the log can tell of what it read (certain and possible origins). */
    public Map<String, Labels> labels() {
        return labels;
    }

    void foreign(Request reader, Request victim, int position) {
        Reader r = readers.computeIfAbsent(reader.name(), k -> new Reader(reader.tenant()));
        r.byVictim.computeIfAbsent(victim.name(), k -> new BitSet()).set(position);
        r.victimTenant.put(victim.name(), victim.tenant());
    }

    void finished(Request reader, boolean delivered) {
        Reader r = readers.get(reader.name());
        if (r != null) {
            r.delivered = delivered;
        }
        Labels l = labels.get(reader.name());
        if (l != null) {
            l.delivered = delivered;
        }
    }

    /** Requests whose responses carried another request's tokens, by name. */
    public Map<String, Reader> readers() {
        return readers;
    }

    /** Foreign tokens carried by responses that were delivered, over all readers. */
    public long deliveredForeignTokens() {
        return readers.values().stream().filter(r -> r.delivered)
                .mapToLong(r -> r.byVictim.values().stream().mapToLong(BitSet::cardinality).sum()).sum();
    }
}
