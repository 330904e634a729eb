package app.vigie.auditlog.rest;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.intake.LineSplitter;
import app.vigie.auditlog.intake.Source;
import app.vigie.auditlog.intake.Utf8;
import app.vigie.auditlog.store.QuarantineStore;

/**
 * An NDJSON body read as it arrives, one window at a time: the complete lines of each window are handed on (and
 * ingested) before the next is read, so that a request holds at most one window, whatever its length. A line longer
 * than the window is not held: its first {@link QuarantineStore#KEPT} bytes are kept with its length and SHA-256,
 * and it is rejected as too long like any line over 1 MiB.
 */
final class StreamedBody {
    /** Takes the lines of one window. */
    interface Lines {
        void take(List<IncomingLine> lines, int blank) throws SQLException;
    }

    /** The body went wrong after {@code linesTaken} lines were handed on (0: nothing was). */
    static final class Stopped extends Exception {
        final long linesTaken;
        final boolean tooLarge;
        /** The body came too slowly: it was still arriving at its deadline. */
        final boolean tooSlow;

        Stopped(String message, long linesTaken, boolean tooLarge) {
            this(message, linesTaken, tooLarge, false);
        }

        Stopped(String message, long linesTaken, boolean tooLarge, boolean tooSlow) {
            super(message, null, false, false);
            this.linesTaken = linesTaken;
            this.tooLarge = tooLarge;
            this.tooSlow = tooSlow;
        }
    }

    private final InputStream in;
    private final byte[] buf;
    private final long max;
    private final Source source;
    private final String sourceName;
    private final boolean checkUtf8;
    private final long started = System.nanoTime();
    private long deadlineNanos = Long.MAX_VALUE;
    private long nextLine;
    private final long firstLine;
    /** Bytes read so far. */
    private long total;
    /** Offset in the body of {@code buf[0]}. */
    private long bufOffset;

    /**
     * @param window the buffer's size: lines longer than it are not held whole
     * @param checkUtf8 an invalid byte stops the body (HTTP batches); else each line is checked alone (files)
     */
    StreamedBody(InputStream in, int window, long max, Source source, String sourceName, long firstLine,
            boolean checkUtf8) {
        this.in = in;
        this.buf = new byte[window];
        this.max = max;
        this.source = source;
        this.sourceName = sourceName;
        this.checkUtf8 = checkUtf8;
        this.nextLine = firstLine;
        this.firstLine = firstLine;
    }

    /** The longest the body may take to arrive; a body still arriving then is stopped. */
    StreamedBody deadline(Duration d) {
        deadlineNanos = d.toNanos();
        return this;
    }

    /** Bytes read. */
    long bytes() {
        return total;
    }

    /** Reads the whole body, handing on the lines of each window in order. */
    void read(Lines to) throws IOException, SQLException, Stopped {
        int filled = 0;
        int start = 0;
        boolean bomDone = false;
        boolean eof = false;
        while (!eof) {
            int n = in.read(buf, filled, buf.length - filled);  // filled < buf.length here
            if (n < 0) {
                eof = true;
            } else {
                count(n);
                filled += n;
            }
            if (!bomDone) {
                if (filled < 3 && !eof) {
                    continue;
                }
                start = LineSplitter.bomLength(buf, filled);
                bomDone = true;
            }
            if (!eof && filled < buf.length) {
                continue;  // the window fills before its lines are handed on: one ingest (chunks of 5000) a window
            }
            int cut = eof ? filled : lastNewline(start, filled) + 1;
            if (cut > start) {
                hand(start, cut, to);
            } else if (filled == buf.length) {
                // no end of line in a full window: a line too long to hold
                filled = longLine(start, filled, to);
                if (filled < 0) {
                    return;
                }
                start = 0;
                continue;
            } else {
                cut = start;  // an unfinished line: kept, read on
            }
            System.arraycopy(buf, cut, buf, 0, filled - cut);
            bufOffset += cut;
            filled -= cut;
            start = 0;
        }
    }

    private void count(int n) throws Stopped {
        if (System.nanoTime() - started > deadlineNanos) {
            throw new Stopped("the body was still arriving after " + (deadlineNanos / 1_000_000_000L)
                    + " s (vigie.ingest.body-deadline); send smaller batches, or send them faster", taken(), false,
                    true);
        }
        total += n;
        if (total > max) {
            throw new Stopped("the body is larger than the limit of " + max
                    + " bytes (vigie.ingest.max-body-bytes); send smaller batches", taken(), true);
        }
    }

    /** Lines handed on and taken so far. */
    long linesTaken() {
        return taken();
    }

    private long taken() {
        return nextLine - firstLine;
    }

    private int lastNewline(int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private void hand(int from, int to, Lines lines) throws SQLException, Stopped {
        if (checkUtf8) {
            int bad = Utf8.firstInvalid(buf, from, to - from);
            if (bad >= 0) {
                long line = nextLine;
                for (int i = from; i < bad; i++) {
                    if (buf[i] == '\n') {
                        line++;
                    }
                }
                throw new Stopped("the body is not valid UTF-8: malformed byte 0x"
                        + String.format("%02x", buf[bad] & 0xff) + " at byte offset " + (bufOffset + bad) + " (line "
                        + line + ")", taken(), false);
            }
        }
        LineSplitter.Split split = LineSplitter.split(buf, from, to, source, sourceName, nextLine, checkUtf8);
        lines.take(split.lines(), split.blank());
        nextLine += split.lines().size() + split.blank();
    }

    /**
     * The line starting at {@code buf[from]} fills the window: its first bytes are kept, the rest is read on, digested
     * and counted up to its end of line, and it is handed on alone (it will be rejected as too long). Returns how many
     * bytes after it are now at the front of {@code buf}, or -1 when the body ended with it.
     */
    private int longLine(int from, int filled, Lines to) throws IOException, SQLException, Stopped {
        MessageDigest sha = sha256();
        byte[] kept = new byte[QuarantineStore.KEPT];
        int keptLength = Math.min(kept.length, filled - from);
        System.arraycopy(buf, from, kept, 0, keptLength);
        sha.update(buf, from, filled - from);
        long length = filled - from;
        int previous = filled;
        while (true) {
            int n = in.read(buf, 0, buf.length);
            if (n < 0) {
                handLong(Arrays.copyOf(kept, keptLength), length, sha, to);
                return -1;
            }
            count(n);
            bufOffset += previous;
            previous = n;
            int nl = 0;
            while (nl < n && buf[nl] != '\n') {
                nl++;
            }
            sha.update(buf, 0, nl);
            length += nl;
            int more = Math.min(kept.length - keptLength, nl);
            System.arraycopy(buf, 0, kept, keptLength, more);
            keptLength += more;
            if (nl < n) {
                handLong(Arrays.copyOf(kept, keptLength), length, sha, to);
                System.arraycopy(buf, nl + 1, buf, 0, n - nl - 1);
                bufOffset += nl + 1;
                return n - nl - 1;
            }
        }
    }

    private void handLong(byte[] kept, long length, MessageDigest sha, Lines to) throws SQLException {
        IncomingLine line = IncomingLine.truncated(source, sourceName, nextLine, kept, length,
                HexFormat.of().formatHex(sha.digest()));
        to.take(List.of(line), 0);
        nextLine++;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
