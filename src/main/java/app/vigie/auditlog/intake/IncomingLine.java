package app.vigie.auditlog.intake;

import java.nio.charset.StandardCharsets;

/**
 * One line as received, a slice of {@code buf}, with where it came from: the source, its name (HTTP batch id, Kafka
 * topic-partition, file name) and the position in it (1-based line, or Kafka offset). {@code utf8Checked}: the
 * whole body it came from is known to be valid UTF-8 already. A line too long to be held whole (the HTTP intake
 * streams its body) keeps only its first bytes in {@code buf}: {@code receivedLength} and {@code receivedSha256} are
 * then those of the whole line; otherwise -1 and null.
 */
public record IncomingLine(Source source, String sourceName, long position, byte[] buf, int offset, int length,
        boolean utf8Checked, long receivedLength, String receivedSha256) {

    public IncomingLine(Source source, String sourceName, long position, byte[] buf, int offset, int length,
            boolean utf8Checked) {
        this(source, sourceName, position, buf, offset, length, utf8Checked, -1, null);
    }

    public static IncomingLine of(Source source, String sourceName, long position, byte[] bytes) {
        return new IncomingLine(source, sourceName, position, bytes, 0, bytes.length, false);
    }

    /** A line of which only the first bytes were kept: it was {@code length} bytes long, with this SHA-256. */
    public static IncomingLine truncated(Source source, String sourceName, long position, byte[] kept, long length,
            String sha256) {
        return new IncomingLine(source, sourceName, position, kept, 0, kept.length, false, length, sha256);
    }

    /** Whether only the first bytes of the line are here ({@link #receivedLength()} says how long it was). */
    public boolean isTruncated() {
        return receivedSha256 != null;
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
