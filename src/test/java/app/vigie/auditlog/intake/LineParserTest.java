package app.vigie.auditlog.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class LineParserTest {
    private final LineParser parser = new LineParser();

    @Test
    void rejectsLinesOverOneMebibyteButAcceptsOneAtTheLimit() {
        String base = RecordParserTest.rec("HEARTBEAT", "\"pad\":\"\"");
        int pad = RecordParser.MAX_LINE_BYTES - base.length();
        String atLimit = base.replace("\"pad\":\"\"", "\"pad\":\"" + "x".repeat(pad) + "\"");
        assertThat(atLimit.length()).isEqualTo(RecordParser.MAX_LINE_BYTES);
        assertThat(parse(atLimit).rejection()).isNull();
        String over = atLimit.replace("\"pad\":\"", "\"pad\":\"x");
        assertThat(parse(over).rejection()).isEqualTo("line is 1048577 bytes long; the limit is 1 MiB (1048576 bytes)");
    }

    @Test
    void rejectsALineThatIsNotUtf8() {
        byte[] bytes = RecordParserTest.rec("HEARTBEAT", "").getBytes(StandardCharsets.UTF_8);
        bytes[20] = (byte) 0xff;
        LineParser.Parsed p = parser.parse(IncomingLine.of(Source.KAFKA, "t-0", 5, bytes));
        assertThat(p.rejection()).isEqualTo("not valid UTF-8: malformed byte 0xff at byte 21");
    }

    @Test
    void acceptsMultibyteUtf8() {
        assertThat(parse(RecordParserTest.rec("HEARTBEAT", "").replace("eu/n1", "é/日本/😀")).rejection()).isNull();
    }

    private LineParser.Parsed parse(String line) {
        return parser.parse(IncomingLine.of(Source.HTTP, "b", 1, line.getBytes(StandardCharsets.UTF_8)));
    }
}
