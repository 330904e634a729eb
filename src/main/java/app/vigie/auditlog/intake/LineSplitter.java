package app.vigie.auditlog.intake;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits an NDJSON body into lines, numbered from 1. A trailing {@code \r} is dropped, a leading UTF-8 byte order
 * mark is skipped, and blank lines are counted but carry no record.
 */
public final class LineSplitter {
    private LineSplitter() {
    }

    /** The lines of the body and how many blank lines it had. */
    public record Split(List<IncomingLine> lines, int blank) {
    }

    /** @param utf8Checked the body is known to be valid UTF-8: lines are not checked again */
    public static Split split(byte[] body, int length, Source source, String sourceName, long firstLine,
            boolean utf8Checked) {
        return split(body, bomLength(body, length), length, source, sourceName, firstLine, utf8Checked);
    }

    /** 3 when the body starts with a UTF-8 byte order mark, else 0. */
    public static int bomLength(byte[] body, int length) {
        return length >= 3 && (body[0] & 0xff) == 0xef && (body[1] & 0xff) == 0xbb && (body[2] & 0xff) == 0xbf ? 3 : 0;
    }

    /**
     * The lines of {@code body[from, to)}, numbered from {@code firstLine}; a line without its {@code \n} at the end
     * of the range is a line. Every line of the range is either in {@code lines} or counted in {@code blank}.
     */
    public static Split split(byte[] body, int from, int length, Source source, String sourceName, long firstLine,
            boolean utf8Checked) {
        List<IncomingLine> lines = new ArrayList<>();
        int blank = 0;
        int start = from;
        long number = firstLine;
        while (start < length) {
            int nl = start;
            while (nl < length && body[nl] != '\n') {
                nl++;
            }
            int end = nl;
            if (end > start && body[end - 1] == '\r') {
                end--;
            }
            if (isBlank(body, start, end)) {
                blank++;
            } else {
                lines.add(new IncomingLine(source, sourceName, number, body, start, end - start, utf8Checked));
            }
            number++;
            start = nl + 1;
        }
        return new Split(lines, blank);
    }

    private static boolean isBlank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
                return false;
            }
        }
        return true;
    }
}
