package app.vigie.incident;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the incident page, the documents and the API sum over an incident's exposures, computed the plain way, in
 * Java, over the whole list: the model {@link IncidentQueries}'s aggregates ({@code tenants}, {@code pairTokens},
 * {@code leaks}) are held against ({@code IncidentAggregatesTest}), and the input of the pages' unit tests.
 */
public final class ExposureModel {
    private ExposureModel() {
    }

    /** Affected tenants, sorted by tenant, without their controllers. */
    public static List<TenantView> tenants(List<ExposureView> exposures) {
        Map<String, long[]> sums = new TreeMap<>();
        Map<String, Set<String>> victimRequests = new HashMap<>();
        Map<String, Set<String>> delivered = new HashMap<>();
        Map<String, Set<String>> roles = new HashMap<>();
        for (ExposureView e : exposures) {
            // certain exposures in [0] (as victim) and [1] (as reader); possible ones apart, in [2] and [3]
            int side = e.possible() ? 2 : 0;
            sums.computeIfAbsent(e.victimTenant(), t -> new long[4])[side] += e.tokens();
            sums.computeIfAbsent(e.readerTenant(), t -> new long[4])[side + 1] += e.tokens();
            roles.computeIfAbsent(e.victimTenant(), t -> new HashSet<>()).add("VICTIM");
            roles.computeIfAbsent(e.readerTenant(), t -> new HashSet<>()).add("RECIPIENT");
            if (e.possible()) {
                continue;
            }
            victimRequests.computeIfAbsent(e.victimTenant(), t -> new HashSet<>()).add(e.victimRequest());
            if ("CROSS_TENANT".equals(e.kind()) && Boolean.TRUE.equals(e.delivered())) {
                delivered.computeIfAbsent(e.readerTenant(), t -> new HashSet<>()).add(e.readerRequest());
            }
        }
        List<TenantView> out = new ArrayList<>();
        sums.forEach((tenant, s) -> out.add(new TenantView(tenant, roles.get(tenant).stream().sorted().toList(),
                victimRequests.getOrDefault(tenant, Set.of()).size(), s[0], s[1],
                delivered.getOrDefault(tenant, Set.of()).size(), false, null, s[2], s[3])));
        return out;
    }

    /** The tokens per (victim tenant, reader tenant, kind, fate), in the order first met. */
    public static List<IncidentQueries.PairTokens> pairs(List<ExposureView> exposures) {
        Map<List<Object>, Long> sums = new LinkedHashMap<>();
        for (ExposureView e : exposures) {
            boolean intra = "INTRA_TENANT".equals(e.kind()) || e.victimTenant().equals(e.readerTenant());
            List<Object> key = new ArrayList<>(List.of(e.victimTenant(), e.readerTenant(), intra));
            key.add(e.delivered());
            key.add(e.possible());
            sums.merge(key, e.tokens(), Long::sum);
        }
        List<IncidentQueries.PairTokens> out = new ArrayList<>();
        sums.forEach((k, tokens) -> out.add(new IncidentQueries.PairTokens((String) k.get(0), (String) k.get(1),
                (Boolean) k.get(2), (Boolean) k.get(3), tokens, (Boolean) k.get(4))));
        return out;
    }

    /**
     * Each reader with a cross-tenant exposure: its earliest read, and its response delivered; a reader whose
     * cross-tenant exposures are all possible is a possible leak, at its earliest possible read.
     */
    public static List<IncidentQueries.Leak> leaks(List<ExposureView> exposures) {
        Map<String, Instant> first = new LinkedHashMap<>();
        Map<String, Instant> firstPossible = new LinkedHashMap<>();
        Map<String, Boolean> delivered = new HashMap<>();
        for (ExposureView e : exposures) {
            if (!"CROSS_TENANT".equals(e.kind()) || e.firstSeenAt() == null) {
                continue;
            }
            (e.possible() ? firstPossible : first).merge(e.readerRequest(), e.firstSeenAt(),
                    (a, b) -> a.isBefore(b) ? a : b);
            delivered.put(e.readerRequest(), Boolean.TRUE.equals(e.delivered()));
        }
        List<IncidentQueries.Leak> out = new ArrayList<>();
        first.forEach((r, at) -> out.add(new IncidentQueries.Leak(r, at, delivered.get(r))));
        firstPossible.forEach((r, at) -> {
            if (!first.containsKey(r)) {
                out.add(new IncidentQueries.Leak(r, at, delivered.get(r), true));
            }
        });
        return out;
    }
}
