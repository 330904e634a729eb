package app.vigie.auditlog.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class LineSplitterTest {

    @Test
    void numbersLinesFromTheFirstCountsBlanksAndDropsCarriageReturns() {
        byte[] body = "\uFEFFa\r\n\n  \nb\nc".getBytes(StandardCharsets.UTF_8);
        LineSplitter.Split split = LineSplitter.split(body, body.length, Source.FILE, "f", 101, false);
        assertThat(split.lines()).extracting(IncomingLine::text).containsExactly("a", "b", "c");
        assertThat(split.lines()).extracting(IncomingLine::position).containsExactly(101L, 104L, 105L);
        assertThat(split.blank()).isEqualTo(2);
    }

    @Test
    void anEmptyBodyHasNoLine() {
        LineSplitter.Split split = LineSplitter.split(new byte[0], 0, Source.HTTP, "b", 1, true);
        assertThat(split.lines()).isEmpty();
        assertThat(split.blank()).isZero();
    }

    @Test
    void utf8CheckFindsTheFirstMalformedByte() {
        byte[] ok = "é日😀".getBytes(StandardCharsets.UTF_8);
        assertThat(Utf8.firstInvalid(ok, 0, ok.length)).isEqualTo(-1);
        byte[] bad = {'a', 'b', (byte) 0xc3, 'c'};
        assertThat(Utf8.firstInvalid(bad, 0, bad.length)).isEqualTo(2);
        byte[] truncated = {'a', (byte) 0xe6, (byte) 0x97};
        assertThat(Utf8.firstInvalid(truncated, 0, truncated.length)).isEqualTo(1);
    }
}
