package app.vigie.rootcause.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import app.vigie.detection.core.Rule;

/** Matching per subject: a finding explained by another of its subject makes no hint of its own. */
class HintMatcherTest {
    private static final Instant T = Instant.parse("2026-08-27T09:00:00Z");
    private final HintMatcher matcher;

    HintMatcherTest() throws Exception {
        matcher = new HintMatcher(HintLoader.load("root-causes.yaml", HintLoaderTest.shipped()));
    }

    private Set<String> ids(Rule... present) {
        Set<String> out = new LinkedHashSet<>();
        matcher.match(EnumSet.of(present[0], present)).keySet().forEach(h -> out.add(h.id()));
        return out;
    }

    @Test
    void aFindingExplainedByAnotherOfItsSubjectMakesNoHintOfItsOwn() {
        // the 2026 shape: the rejected request's transfer covered one token, and it read others' pages
        assertThat(ids(Rule.REJECTED_REQUEST_SERVED, Rule.TRANSFER_COVERAGE_GAP, Rule.CROSS_TENANT_READ,
                Rule.UNINITIALIZED_READ)).containsExactly("rejected-request-served");
        // the same gap without a reject: a transfer cut short
        assertThat(ids(Rule.TRANSFER_COVERAGE_GAP, Rule.INTRA_TENANT_READ)).containsExactly("transfer-coverage-gap");
        // a free during the transfer, with the sender's log: the checksum's mismatch is its consequence
        assertThat(ids(Rule.TRANSFER_SENT_FOREIGN, Rule.TRANSFER_CHECKSUM_MISMATCH, Rule.CROSS_TENANT_READ))
                .containsExactly("free-during-transfer");
        // the same without the sender's log (spec v1): only the checksum tells
        assertThat(ids(Rule.TRANSFER_CHECKSUM_MISMATCH)).containsExactly("transfer-checksum-mismatch");
        assertThat(ids(Rule.SHARED_PAGE_FOREIGN, Rule.CROSS_TENANT_READ)).containsExactly("stale-prefix-cache-index");
        // two faults on one request: both hints
        assertThat(ids(Rule.TRANSFER_COVERAGE_GAP, Rule.TRANSFER_CHECKSUM_MISMATCH))
                .containsExactly("transfer-coverage-gap", "transfer-checksum-mismatch");
        // reads alone: no hint (their cause is not in the log)
        assertThat(ids(Rule.CROSS_TENANT_READ)).isEmpty();
    }

    @Test
    void theTallyCountsSubjectsSupportingFindingsAndWhatNoHintAccountsFor() {
        HintMatcher.Tally t = matcher.tally();
        for (int i = 0; i < 8; i++) {
            Map<String, Instant> f = new LinkedHashMap<>();
            f.put("REJECTED_REQUEST_SERVED", T.plusSeconds(100 - i));
            f.put("TRANSFER_COVERAGE_GAP", T.plusSeconds(101 - i));
            if (i % 2 == 0) {
                f.put("CROSS_TENANT_READ", T.plusSeconds(102 - i));
            }
            t.subject("r" + i, f);
        }
        t.subject("n1/decode@b1", Map.of("CONTEXT_EXCEEDS_POOL", T));
        t.subject("x", Map.of("CROSS_TENANT_READ", T, "DOUBLE_ALLOC", T));
        t.subject("y", Map.of("A_RULE_OF_LONG_AGO", T));
        HintMatcher.Result r = t.result();
        assertThat(r.matches()).extracting(m -> m.hint().id()).containsExactly("context-exceeds-pool",
                "rejected-request-served");
        HintMatcher.Match reject = r.matches().get(1);
        assertThat(reject.subjects()).isEqualTo(8);
        assertThat(reject.findings()).containsExactlyInAnyOrderEntriesOf(Map.of(Rule.REJECTED_REQUEST_SERVED, 8L,
                Rule.TRANSFER_COVERAGE_GAP, 8L, Rule.CROSS_TENANT_READ, 4L));
        // the earliest five subjects, earliest first
        assertThat(reject.examples()).extracting(HintMatcher.Example::subject)
                .containsExactly("r7", "r6", "r5", "r4", "r3");
        assertThat(reject.firstSeen()).isEqualTo(T.plusSeconds(93));
        // by rule name; a rule this version does not know is counted by its name
        assertThat(r.unaccounted()).containsExactly(entry("A_RULE_OF_LONG_AGO", 1L), entry("CROSS_TENANT_READ", 1L),
                entry("DOUBLE_ALLOC", 1L));
    }

    /**
     * A stale cache entry seen anywhere in the incident accounts for its cross-customer shares on every subject: a
     * cache salted per customer shares across customers only through such an entry. Without one, the shares are the
     * shared cache's.
     */
    @Test
    void aStaleEntryInTheIncidentAccountsForItsCrossCustomerSharesOnEverySubject() {
        Map<String, Map<String, Instant>> withStale = Map.of("a", Map.of("SHARED_PAGE_FOREIGN", T,
                "CROSS_TENANT_READ", T), "b", Map.of("CROSS_TENANT_SHARE", T.plusSeconds(1)));
        HintMatcher.Result r = matcher.result(t -> withStale.forEach(t::subject));
        assertThat(r.matches()).extracting(m -> m.hint().id()).containsExactly("stale-prefix-cache-index");
        assertThat(r.matches().get(0).subjects()).isEqualTo(2);
        assertThat(r.matches().get(0).findings()).containsEntry(Rule.CROSS_TENANT_SHARE, 1L);
        assertThat(r.unaccounted()).isEmpty();
        // one pass alone (a subject at a time) cannot know it
        HintMatcher.Tally once = matcher.tally();
        withStale.forEach(once::subject);
        assertThat(once.result().matches()).extracting(m -> m.hint().id()).containsExactly("stale-prefix-cache-index",
                "prefix-cache-shared-between-customers");
        Map<String, Map<String, Instant>> shared = Map.of("b", Map.of("CROSS_TENANT_SHARE", T));
        assertThat(matcher.result(t -> shared.forEach(t::subject)).matches()).extracting(m -> m.hint().id())
                .containsExactly("prefix-cache-shared-between-customers");
    }

    /** Two causes on one request both explaining its read: the read counts under the first, in the catalogue's order. */
    @Test
    void aFindingTwoMatchedHintsExplainCountsUnderOneOnly() {
        HintMatcher.Result r = matcher.result(t -> t.subject("r", Map.of("TRANSFER_COVERAGE_GAP", T,
                "SHARED_PAGE_FOREIGN", T, "CROSS_TENANT_READ", T)));
        assertThat(r.matches()).extracting(m -> m.hint().id()).containsExactly("transfer-coverage-gap",
                "stale-prefix-cache-index");
        assertThat(r.matches().get(0).findings()).containsOnlyKeys(Rule.TRANSFER_COVERAGE_GAP, Rule.CROSS_TENANT_READ);
        assertThat(r.matches().get(1).findings()).containsOnlyKeys(Rule.SHARED_PAGE_FOREIGN);
        assertThat(r.unaccounted()).isEmpty();
    }
}
