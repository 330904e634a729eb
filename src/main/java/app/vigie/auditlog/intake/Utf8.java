package app.vigie.auditlog.intake;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Strict UTF-8 checks. */
public final class Utf8 {
    private Utf8() {
    }

    /** The index of the first byte of the first malformed sequence in the slice, or -1 when it is all valid UTF-8. */
    public static int firstInvalid(byte[] buf, int offset, int length) {
        int end = offset + length;
        int i = offset;
        while (i < end && buf[i] >= 0) {
            i++;
        }
        if (i == end) {
            return -1;
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(buf, i, end - i);
        CharBuffer out = CharBuffer.allocate(8192);
        while (true) {
            CoderResult r = decoder.decode(in, out, true);
            if (r.isError()) {
                return in.position();
            }
            if (r.isOverflow()) {
                out.clear();
                continue;
            }
            r = decoder.flush(out);
            if (r.isOverflow()) {
                out.clear();
                continue;
            }
            return -1;
        }
    }
}
