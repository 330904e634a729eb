package app.vigie.pack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Issue 41, point 10: a pack's entry names cannot leave the pack nor overwrite each other where it is unpacked. A
 * name with a {@code .} or {@code ..} segment (or an empty one, or a leading {@code /}) is refused, and so is a name
 * that differs from an earlier one only by case ({@code Acme} and {@code acme} are one file on a case-insensitive
 * file system).
 */
class PackEntryNamesTest {
    private static final byte[] BODY = "x".getBytes(StandardCharsets.UTF_8);

    @Test
    void dotSegmentsAndAbsoluteNamesAreRefused() {
        for (String name : List.of(".", "..", "controllers/../processor-alert.pdf", "controllers/./x.pdf",
                "controllers/../../etc/passwd", "/etc/passwd", "controllers//x.pdf", "controllers\\..\\x.pdf", "")) {
            PackWriter w = new PackWriter(new ByteArrayOutputStream(), Instant.EPOCH);
            assertThatThrownBy(() -> w.add(name, "text/plain", BODY, "d")).as("entry name '" + name + "'")
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void namesThatDifferOnlyByCaseAreRefused() throws IOException {
        PackWriter w = new PackWriter(new ByteArrayOutputStream(), Instant.EPOCH);
        w.add("controllers/Acme/processor-alert.pdf", "application/pdf", BODY, "d");
        assertThatThrownBy(() -> w.add("controllers/acme/processor-alert.pdf", "application/pdf", BODY, "d"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> w.add("MANIFEST.json", "application/json", BODY, "d"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
