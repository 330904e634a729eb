package app.vigie.auditlog.intake;

import java.nio.charset.StandardCharsets;

/**
 * One line as received, a slice of {@code buf}, with where it came from: the source, its name (HTTP batch id, Kafka
 * topic-partition, file name) and the position in it (1-based line, or Kafka offset). {@code utf8Checked}: the
 * whole body it came from is known to be valid UTF-8 already.
 */
public record IncomingLine(Source source, String sourceName, long position, byte[] buf, int offset, int length,
        boolean utf8Checked) {

    public static IncomingLine of(Source source, String sourceName, long position, byte[] bytes) {
        return new IncomingLine(source, sourceName, position, bytes, 0, bytes.length, false);
    }

    public byte[] bytes() {
        if (offset == 0 && length == buf.length) {
            return buf;
        }
        byte[] copy = new byte[length];
        System.arraycopy(buf, offset, copy, 0, length);
        return copy;
    }

    public String text() {
        return new String(buf, offset, length, StandardCharsets.UTF_8);
    }
}
