package app.vigie.auditlog.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FastDecompressor;

/**
 * Accepted records of one (stream, boot) as stored together in a row of {@code record_segment}: their lines as
 * received, in seq order, each preceded by its length (unsigned LEB128), in one LZ4 block. A segment spans fewer than
 * {@link #MAX_SPAN} seqs, so that the segments holding seq n all start within (n - MAX_SPAN, n].
 */
final class Segment {
    static final int MAX_SPAN = 4096;
    /** Uncompressed bytes a segment takes before the next line starts another one (a line is at most 1 MiB). */
    static final int MAX_RAW_BYTES = 8 << 20;
    static final String LZ4 = "lz4";
    /** A single line as received, uncompressed: the rows of {@code audit_record} migrated by V7. */
    static final String ONE = "one";

    private static final LZ4Factory FACTORY = factory();
    private static final LZ4Compressor COMPRESSOR = FACTORY.fastCompressor();
    private static final LZ4FastDecompressor DECOMPRESSOR = FACTORY.fastDecompressor();

    private Segment() {
    }

    /**
     * The native LZ4 when it loads (3 to 4 times faster), else the safe Java one. Not {@code fastestInstance()}: it
     * tries the native library only from the system class loader, which is never the case inside Quarkus.
     */
    private static LZ4Factory factory() {
        try {
            LZ4Factory f = LZ4Factory.nativeInstance();
            byte[] probe = f.fastCompressor().compress(new byte[64]);
            if (f.fastDecompressor().decompress(probe, 64).length == 64) {
                return f;
            }
        } catch (Throwable e) {
            // no native library for this platform, or it can't be loaded here
        }
        return LZ4Factory.safeInstance();
    }

    /** A segment ready to insert. {@code seqs} is null when the records are exactly {@code first..last}. */
    record Encoded(long streamBootId, long first, long last, int records, Long[] seqs, int rawLength, byte[] data) {
    }

    /** Builds one segment from lines in ascending seq order; the caller keeps the span and size bounds. */
    static final class Builder {
        private final long streamBootId;
        private long[] seqs = new long[64];
        private int count;
        private byte[] raw = new byte[4096];
        private int length;

        Builder(long streamBootId) {
            this.streamBootId = streamBootId;
        }

        long streamBootId() {
            return streamBootId;
        }

        /** Whether a line of {@code bytes} at {@code seq} still fits in this segment. */
        boolean fits(long seq, int bytes) {
            return count == 0 || (seq - seqs[0] < MAX_SPAN && length + bytes + 5 <= MAX_RAW_BYTES);
        }

        void add(long seq, byte[] buf, int offset, int len) {
            ensure(len + 5);
            int v = len;
            while ((v & ~0x7f) != 0) {
                raw[length++] = (byte) ((v & 0x7f) | 0x80);
                v >>>= 7;
            }
            raw[length++] = (byte) v;
            System.arraycopy(buf, offset, raw, length, len);
            length += len;
            if (count == seqs.length) {
                seqs = Arrays.copyOf(seqs, count * 2);
            }
            seqs[count++] = seq;
        }

        private void ensure(int more) {
            if (length + more > raw.length) {
                raw = Arrays.copyOf(raw, Math.max(raw.length * 2, length + more));
            }
        }

        Encoded encode() {
            long first = seqs[0];
            long last = seqs[count - 1];
            boolean contiguous = last - first + 1 == count;
            byte[] out = new byte[COMPRESSOR.maxCompressedLength(length)];
            int n = COMPRESSOR.compress(raw, 0, length, out, 0, out.length);
            Long[] boxed = null;
            if (!contiguous) {
                boxed = new Long[count];
                for (int i = 0; i < count; i++) {
                    boxed[i] = seqs[i];
                }
            }
            return new Encoded(streamBootId, first, last, count, boxed, length, Arrays.copyOf(out, n));
        }
    }

    /** The records of a stored segment, in seq order. */
    static List<StoredRecord> decode(long streamBootId, long first, Long[] seqs, String codec, int rawLength,
            byte[] data) {
        if (ONE.equals(codec)) {
            return List.of(new StoredRecord(streamBootId, first, new String(data, StandardCharsets.UTF_8)));
        }
        if (!LZ4.equals(codec)) {
            throw new IllegalStateException("segment " + streamBootId + "/" + first + " has an unknown codec '" + codec
                    + "'");
        }
        byte[] raw = DECOMPRESSOR.decompress(data, rawLength);
        List<StoredRecord> out = new ArrayList<>(seqs == null ? 16 : seqs.length);
        int p = 0;
        int i = 0;
        while (p < rawLength) {
            int len = 0;
            int shift = 0;
            byte b;
            do {
                b = raw[p++];
                len |= (b & 0x7f) << shift;
                shift += 7;
            } while (b < 0);
            long seq = seqs == null ? first + i : seqs[i];
            out.add(new StoredRecord(streamBootId, seq, new String(raw, p, len, StandardCharsets.UTF_8)));
            p += len;
            i++;
        }
        if (seqs != null && i != seqs.length) {
            throw new IllegalStateException("segment " + streamBootId + "/" + first + " holds " + i + " lines for "
                    + seqs.length + " seqs");
        }
        return out;
    }
}
