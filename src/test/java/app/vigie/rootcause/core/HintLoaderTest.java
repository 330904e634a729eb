package app.vigie.rootcause.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import app.vigie.compliance.rules.InvalidRules;
import app.vigie.rootcause.RootCauses;
import app.vigie.detection.core.Rule;

/** The shipped catalogue loads; a broken one is refused with its line and the problem, one way after another. */
class HintLoaderTest {
    static final Path FILE = Path.of("root-causes/root-causes.yaml");

    static String shipped() throws Exception {
        return Files.readString(FILE);
    }

    @Test
    void theShippedCatalogueLoadsWithEveryHintInEachLanguage() throws Exception {
        HintCatalogue c = HintLoader.load(FILE.toString(), shipped());
        assertThat(c.hints()).extracting(Hint::id).containsExactly("context-exceeds-pool", "rejected-request-served",
                "transfer-coverage-gap", "free-during-transfer", "transfer-checksum-mismatch",
                "stale-prefix-cache-index", "prefix-cache-shared-between-customers");
        for (Hint h : c.hints()) {
            assertThat(h.name()).containsOnlyKeys("en", "fr");
            assertThat(h.cause()).containsOnlyKeys("en", "fr");
            assertThat(h.prevention()).allSatisfy(p -> assertThat(p.text()).containsOnlyKeys("en", "fr"));
            assertThat(h.references()).isNotEmpty().allSatisfy(r -> {
                assertThat(r.url()).startsWith("https://");
                assertThat(r.shows()).containsOnlyKeys("en", "fr");
            });
        }
        // the six faults and checks: each named once
        assertThat(c.hint("rejected-request-served").orElseThrow().explains())
                .contains(Rule.TRANSFER_COVERAGE_GAP, Rule.CROSS_TENANT_READ);
        assertThat(c.hints().stream().flatMap(h -> h.prevention().stream()).map(Hint.Check::id))
                .contains("startup-window-check", "abort-on-reject", "coverage-check", "deferred-free", "page-tags");
    }

    @Test
    void everyFindingRuleThatSignalsAFaultIsMatchedByAHint() throws Exception {
        HintCatalogue c = HintLoader.load(FILE.toString(), shipped());
        Set<Rule> matched = EnumSet.noneOf(Rule.class);
        c.hints().forEach(h -> matched.addAll(h.matches()));
        // reads alone have several causes (the hint comes from the finding next to them); the others are about the
        // log or Vigie itself, not a runtime fault
        assertThat(EnumSet.complementOf(EnumSet.copyOf(matched))).containsExactlyInAnyOrder(Rule.CROSS_TENANT_READ,
                Rule.INTRA_TENANT_READ, Rule.UNINITIALIZED_READ, Rule.DOUBLE_ALLOC, Rule.STREAM_GAP,
                Rule.TABLE_EVICTED, Rule.TRANSFER_SEND_MISSING, Rule.STREAM_UNSUPPORTED, Rule.RESTART_WHILE_OWNING);
    }

    private static void refused(String from, String to, int line, String problem) throws Exception {
        String text = shipped();
        assertThat(text).contains(from);
        String broken = text.replaceFirst(Pattern.quote(from), Matcher.quoteReplacement(to));
        assertThatThrownBy(() -> HintLoader.load("root-causes.yaml", broken)).isInstanceOf(InvalidRules.class)
                .satisfies(e -> {
                    assertThat(e.getMessage()).contains(problem);
                    if (line > 0) {
                        assertThat(((InvalidRules) e).line()).isEqualTo(line);
                    }
                });
    }

    private static int lineOf(String text) throws Exception {
        String s = shipped();
        return (int) s.substring(0, s.indexOf(text)).chars().filter(ch -> ch == '\n').count() + 1;
    }

    @Test
    void aBrokenCatalogueIsRefusedWithItsLineAndTheProblem() throws Exception {
        refused("matches: [CONTEXT_EXCEEDS_POOL]", "matches: [CONTEXT_TOO_BIG]", lineOf("matches: [CONTEXT_EXCEEDS_POOL]"),
                "no finding rule 'CONTEXT_TOO_BIG'");
        refused("      fr: Fenêtre de contexte plus grande que la réserve du cache KV\n", "",
                lineOf("      en: Context window larger than the KV pool"), "'fr' is required");
        refused("url: https://github.com/vllm-project/vllm/pull/2163", "url: http://github.com/vllm-project/vllm/pull/2163",
                lineOf("url: https://github.com/vllm-project/vllm/pull/2163"), "expected an https:// address");
        refused("- id: transfer-coverage-gap", "- id: rejected-request-served", 0, "given twice");
        refused("    matches: [TRANSFER_CHECKSUM_MISMATCH]\n    explains: []",
                "    matches: [TRANSFER_CHECKSUM_MISMATCH]\n    explains: [TRANSFER_SENT_FOREIGN]", 0,
                "'explains' makes a loop: TRANSFER_CHECKSUM_MISMATCH -> TRANSFER_SENT_FOREIGN -> TRANSFER_CHECKSUM_MISMATCH");
        refused("    explains: []\n    cause:", "    explains: [CONTEXT_EXCEEDS_POOL]\n    cause:", 0,
                "CONTEXT_EXCEEDS_POOL is both matched and explained");
        refused("        state: merged\n        date: 2023-12-18", "        state: landed\n        date: 2023-12-18",
                lineOf("        state: merged\n        date: 2023-12-18"), "expected one of closed, merged, open, published");
        refused("date: 2023-12-18", "date: 18/12/2023", lineOf("date: 2023-12-18"), "expected a date YYYY-MM-DD");
        refused("    runtime: {fault: pool-smaller-than-window, scenario: incident-2026}",
                "    runtime: {scenario: incident-2026}", 0, "a fault or a cache mode");
        refused("    cause:\n      en: >-\n        The engine advertised", "    causes:\n      en: >-\n        The engine advertised",
                0, "unknown key 'causes'");
        refused("version: 2026-12-06", "version: last week", 0, "expected the file's date");
        refused("    matches: [CROSS_TENANT_SHARE]\n    explains: []", "    matches: [CROSS_TENANT_SHARE]\n    explains: []\n"
                + "    explains_in_incident: [CROSS_TENANT_SHARE]", 0, "CROSS_TENANT_SHARE is both matched and explained");
        refused("    matches: [TRANSFER_CHECKSUM_MISMATCH]\n    explains: []", "    matches: [TRANSFER_CHECKSUM_MISMATCH]\n"
                + "    explains: []\n    explains_in_incident: [CROSS_TENANT_SHARE]", 0,
                "CROSS_TENANT_SHARE is explained in the incident by two hints");
        refused("    matches: [TRANSFER_CHECKSUM_MISMATCH]\n    explains: []", "    matches: [TRANSFER_CHECKSUM_MISMATCH]\n"
                + "    explains: []\n    explains_in_incident: [SHARED_PAGE_FOREIGN]", 0,
                "SHARED_PAGE_FOREIGN signals this hint and is explained in the incident by transfer-checksum-mismatch");
        refused("    name:\n      en: Context window larger than the KV pool\n      fr: Fenêtre de contexte plus grande que la"
                + " réserve du cache KV\n", "    name: Context window\n", 0, "expected a text per language");
    }

    /** The service reads the file named by vigie.root-causes.file at start, and does not start with a broken one. */
    @Test
    void theServiceRefusesToStartWithABrokenFileAndReadsAGoodOne(@TempDir Path dir)
            throws Exception {
        Path good = dir.resolve("good.yaml");
        Files.writeString(good, shipped());
        assertThat(new RootCauses(Optional.of(good.toString())).catalogue().hints()).hasSize(7);
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, shipped().replace("matches: [SHARED_PAGE_FOREIGN]", "matches: [SHARED_PAGE]"));
        assertThatThrownBy(() -> new RootCauses(Optional.of(broken.toString())))
                .isInstanceOf(InvalidRules.class).hasMessageStartingWith(broken + " line ")
                .hasMessageContaining("no finding rule 'SHARED_PAGE'");
        assertThatThrownBy(() -> new RootCauses(Optional.of(dir.resolve("none.yaml").toString())))
                .isInstanceOf(InvalidRules.class).hasMessageContaining("cannot be read");
        // unset: ./root-causes/root-causes.yaml, here the shipped one
        assertThat(new RootCauses(Optional.empty()).catalogue().version()).isEqualTo("2026-12-06");
    }
}
