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
