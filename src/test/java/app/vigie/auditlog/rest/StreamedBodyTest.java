package app.vigie.auditlog.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.intake.LineSplitter;
import app.vigie.auditlog.intake.Source;
import app.vigie.auditlog.store.QuarantineStore;
import app.vigie.platform.Digests;

/**
 * The HTTP intake reads a body a window at a time (issue 41, point 2): whatever the window and however the bytes
 * arrive, it hands on the same lines, with the same numbers, as splitting the whole body at once, and holds no line
 * longer than its window.
 */
class StreamedBodyTest {
    private static final int WINDOW = 64;
    /** What lines are made of: ASCII, blanks, and characters of two and three bytes. */
    private static final String[] PIECES = {"a", "b", " ", "\t", "{", "\"", "é", "€"};

    private record Seen(long position, String text, long receivedLength, String sha) {
    }

    private static List<Seen> stream(byte[] body, int window, InputStream in) throws Exception {
        List<Seen> seen = new ArrayList<>();
        int[] blank = {0};
        new StreamedBody(in, window, Long.MAX_VALUE, Source.HTTP, "b", 1, true).read((lines, b) -> {
            blank[0] += b;
            for (IncomingLine l : lines) {
                seen.add(new Seen(l.position(), l.text(), l.receivedLength(), l.receivedSha256()));
            }
        });
        seen.add(new Seen(-1, "blank " + blank[0], -1, null));
        return seen;
    }

    private static List<Seen> whole(byte[] body) {
        LineSplitter.Split split = LineSplitter.split(body, body.length, Source.HTTP, "b", 1, true);
        List<Seen> seen = new ArrayList<>();
        for (IncomingLine l : split.lines()) {
            seen.add(new Seen(l.position(), l.text(), -1, null));
        }
        seen.add(new Seen(-1, "blank " + split.blank(), -1, null));
        return seen;
    }

    /** Gives at most {@code most} bytes a read, a different number each time. */
    private static InputStream trickle(byte[] body, Random random, int most) {
        return new ByteArrayInputStream(body) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1 + random.nextInt(most)));
            }
        };
    }

    @Test
    void randomBodiesGiveTheSameLinesAsSplittingThemWhole() throws Exception {
        Random random = new Random(41);
        for (int run = 0; run < 2000; run++) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            if (random.nextInt(5) == 0) {
                b.write(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf});
            }
            int lines = random.nextInt(12);
            for (int i = 0; i < lines; i++) {
                int length = random.nextInt(10) == 0 ? 0 : random.nextInt(WINDOW - 6);
                for (int k = 0; k < length; ) {
                    byte[] c = PIECES[random.nextInt(PIECES.length)].getBytes(StandardCharsets.UTF_8);
                    b.write(c);
                    k += c.length;
                }
                if (random.nextInt(6) == 0) {
                    b.write('\r');
                }
                if (i < lines - 1 || random.nextBoolean()) {
                    b.write('\n');
                }
            }
            byte[] body = b.toByteArray();
            assertThat(stream(body, WINDOW, trickle(body, random, 1 + random.nextInt(80))))
                    .as("run %d: %s", run, new String(body, StandardCharsets.UTF_8)).isEqualTo(whole(body));
        }
    }

    @Test
    void aLineLongerThanTheWindowIsHandedOnAsItsFirstBytesWithItsLengthAndDigest() throws Exception {
        byte[] huge = new byte[QuarantineStore.KEPT * 3 + 17];
        Arrays.fill(huge, (byte) 'x');
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write("first\n".getBytes(StandardCharsets.UTF_8));
        b.write(huge);
        b.write("\nlast\n".getBytes(StandardCharsets.UTF_8));
        byte[] body = b.toByteArray();
        List<IncomingLine> got = new ArrayList<>();
        new StreamedBody(trickle(body, new Random(1), 5000), 4096, Long.MAX_VALUE, Source.HTTP, "b", 1, true)
                .read((lines, blank) -> got.addAll(lines));
        assertThat(got).extracting(IncomingLine::position).containsExactly(1L, 2L, 3L);
        IncomingLine big = got.get(1);
        assertThat(big.isTruncated()).isTrue();
        assertThat(big.length()).isEqualTo(QuarantineStore.KEPT);
        assertThat(big.receivedLength()).isEqualTo(huge.length);
        assertThat(big.receivedSha256()).isEqualTo(Digests.sha256Hex(huge));
        assertThat(got.get(2).text()).isEqualTo("last");
    }

    @Test
    void anInvalidByteStopsTheBodyAndSaysHowManyLinesWereTaken() {
        byte[] body = ("a\nb\nc\n" + "d".repeat(100) + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] bad = new byte[body.length + 3];
        System.arraycopy(body, 0, bad, 0, body.length);
        bad[body.length] = 'e';
        bad[body.length + 1] = (byte) 0xc3;
        bad[body.length + 2] = '\n';
        List<Long> taken = new ArrayList<>();
        assertThatThrownBy(() -> new StreamedBody(new ByteArrayInputStream(bad), 64, Long.MAX_VALUE, Source.HTTP,
                "b", 1, true).read((lines, blank) -> lines.forEach(l -> taken.add(l.position()))))
                .isInstanceOfSatisfying(StreamedBody.Stopped.class, s -> {
                    assertThat(s.linesTaken).isEqualTo(taken.size());
                    assertThat(s.getMessage()).contains("0xc3", "line 5", "byte offset " + (body.length + 1));
                });
        assertThat(taken).isNotEmpty().allMatch(p -> p < 5);
    }

    @Test
    void aBodyOverTheLimitStopsAsSoonAsItGoesOver() {
        byte[] body = "0123456789\n".repeat(100).getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> new StreamedBody(new ByteArrayInputStream(body), 64, 500, Source.HTTP, "b", 1, true)
                .read((lines, blank) -> { }))
                .isInstanceOfSatisfying(StreamedBody.Stopped.class, s -> {
                    assertThat(s.tooLarge).isTrue();
                    assertThat(s.getMessage()).contains("limit of 500 bytes");
                });
    }

    @Test
    void aBodyStillArrivingAtItsDeadlineIsStoppedWithTheLinesTakenSaid() {
        byte[] body = "0123456789\n".repeat(100).getBytes(StandardCharsets.UTF_8);
        InputStream slow = new ByteArrayInputStream(body) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return super.read(b, off, Math.min(len, 11));
            }
        };
        List<Long> taken = new ArrayList<>();
        assertThatThrownBy(() -> new StreamedBody(slow, 64, Long.MAX_VALUE, Source.HTTP, "b", 1, true)
                .deadline(Duration.ofMillis(100)).read((lines, blank) -> lines.forEach(l -> taken.add(l.position()))))
                .isInstanceOfSatisfying(StreamedBody.Stopped.class, s -> {
                    assertThat(s.tooSlow).isTrue();
                    assertThat(s.linesTaken).isEqualTo(taken.size()).isLessThan(100);
                    assertThat(s.getMessage()).contains("vigie.ingest.body-deadline");
                });
    }
}
