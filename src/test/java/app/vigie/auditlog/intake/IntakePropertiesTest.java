package app.vigie.auditlog.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Property-based tests (jqwik, with shrinking) of the intake's core, where every line's fate is decided: a batch of
 * valid, mutated and random lines is split and parsed without an exception, every line ends accepted or rejected
 * with a reason, at its own line number, and the valid lines are accepted. (What the service adds: storage,
 * duplicates and the quarantine, over HTTP, is MutatedInputTest's, a @QuarkusTest, which jqwik's engine cannot
 * drive.)
 */
class IntakePropertiesTest {
    private static final List<String> VALID = examples();
    private final LineParser parser = new LineParser();

    private static List<String> examples() {
        try {
            List<String> out = new ArrayList<>();
            for (String name : List.of("03-pd-rejected-prompt.ndjson", "02-partial-overwrite.ndjson")) {
                for (String l : Files.readAllLines(Path.of("src/test/resources/examples", name),
                        StandardCharsets.UTF_8)) {
                    if (!l.isBlank()) {
                        out.add(l);
                    }
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A line and whether it is one of the examples' valid lines unchanged. */
    record Line(String text, boolean valid) {
    }

    @Provide
    Arbitrary<Line> lines() {
        Arbitrary<String> valid = Arbitraries.of(VALID);
        Arbitrary<Integer> at = Arbitraries.integers().between(0, 10_000);
        Arbitrary<Character> any = Arbitraries.chars().all().filter(c -> c != '\n' && !Character.isSurrogate(c));
        Arbitrary<Line> mutated = Combinators.combine(valid, at, any, Arbitraries.integers().between(0, 7))
                .as((text, i, c, how) -> {
                    int k = i % text.length();
                    String m = switch (how) {
                        case 0 -> text.substring(0, k) + text.substring(k + 1);             // a character dropped
                        case 1 -> text.substring(0, k) + c + text.substring(k);             // one inserted
                        case 2 -> text.substring(0, k) + c + text.substring(k + 1);         // one replaced
                        case 3 -> text.substring(0, k);                                      // truncated
                        case 4 -> text.replaceFirst("\"seq\": ?\\d+",                       // wrong type
                                Matcher.quoteReplacement("\"seq\": \"" + c + "\""));  // '$' and '\\' are literal
                        case 5 -> text.replaceFirst("\"type\": ?\"\\w+\"", "\"type\": \"NOPE\""); // unknown enum
                        case 6 -> text.replace("}", ", \"extra\": [1, {\"x\": null}]}");   // unknown field
                        default -> text.replaceFirst("\"boot\": ?\"[^\"]*\",? ?", "");        // field missing
                    };
                    return new Line(m, m.equals(text) || how == 6);
                });
        Arbitrary<Line> random = Arbitraries.strings().ofMaxLength(300)
                .map(s -> s.replace('\n', ' ').replace('\uFEFF', ' '))
                .map(s -> new Line(s, false));
        Arbitrary<Line> blank = Arbitraries.of("", " ", "\t", "\r").map(s -> new Line(s, false));
        return Arbitraries.frequencyOf(Tuple.of(4, valid.map(s -> new Line(s, true))),
                Tuple.of(6, mutated), Tuple.of(2, random),
                Tuple.of(1, blank));
    }

    @Property(tries = 400)
    void everyLineIsAcceptedOrRejectedWithAReasonAtItsLine(@ForAll("batches") List<Line> batch) {
        String body = String.join("\n", batch.stream().map(Line::text).toList());
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        LineSplitter.Split split = LineSplitter.split(bytes, bytes.length, Source.HTTP, "b", 1, false);
        long blankExpected = batch.stream().filter(l -> blank(l.text())).count();
        // a final empty line is the body's end (a trailing newline), not a line
        if (!batch.isEmpty() && batch.get(batch.size() - 1).text().isEmpty()) {
            blankExpected--;
        }
        int expected = batch.size();
        if (!batch.isEmpty() && batch.get(batch.size() - 1).text().isEmpty()) {
            expected--;
        }
        assertThat(split.lines().size() + split.blank()).as("every line counted").isEqualTo(expected);
        assertThat((long) split.blank()).isEqualTo(blankExpected);
        for (IncomingLine in : split.lines()) {
            LineParser.Parsed p = parser.parse(in);
            Line original = batch.get((int) in.position() - 1);
            assertThat(in.text()).isEqualTo(original.text().endsWith("\r")
                    ? original.text().substring(0, original.text().length() - 1) : original.text());
            assertThat(p.record() == null).as("accepted or rejected, not both: %s", in.text())
                    .isEqualTo(p.rejection() != null);
            if (p.rejection() != null) {
                assertThat(p.rejection()).isNotBlank();
            }
            if (original.valid()) {
                assertThat(p.rejection()).as("a valid line: %s", in.text()).isNull();
            }
        }
    }

    /**
     * A blank line as the intake counts it: JSON's own white space only (space, tab, a CR before the LF). A line of
     * other white space (a vertical tab, a form feed, U+3000) is not JSON: it is rejected with its reason and kept.
     */
    private static boolean blank(String text) {
        return text.chars().allMatch(c -> c == ' ' || c == '\t' || c == '\r');
    }

    /** The case jqwik found (seed -1755043966988611450): a vertical tab alone is a rejected line, not a blank one. */
    @Example
    void aLineOfOtherWhiteSpaceIsRejectedWithItsReasonNotCountedBlank() {
        for (String other : new String[] {"\u000B", "\f", "\u3000", " \u001C "}) {
            byte[] bytes = other.getBytes(StandardCharsets.UTF_8);
            LineSplitter.Split split = LineSplitter.split(bytes, bytes.length, Source.HTTP, "b", 1, false);
            assertThat(split.blank()).as("%s", other).isZero();
            assertThat(split.lines()).hasSize(1);
            assertThat(parser.parse(split.lines().get(0)).rejection()).as("%s", other).isNotBlank();
        }
    }

    @Provide
    Arbitrary<List<Line>> batches() {
        return lines().list().ofMaxSize(60);
    }
}
