package app.vigie.pack;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A ZIP written as its files come, each file's size and SHA-256 kept for the manifest, {@value #MANIFEST}, written
 * last: a reader checks every file against it. Only {@link #finish} ends the ZIP: a pack whose making failed is left
 * without its central directory, which no reader opens as whole. Plain Java.
 */
public final class PackWriter {
    /** The manifest's name inside the pack. */
    public static final String MANIFEST = "manifest.json";

    /** A file of the pack as the manifest lists it; {@code tenant}: the customer it is about (null: none). */
    public record FileLine(String name, String tenant, String mediaType, long bytes, String sha256,
            String description) {
    }

    private final ZipOutputStream zip;
    private final FileTime time;
    private final List<FileLine> files = new ArrayList<>();
    /** The names given so far, in lower case (the manifest's among them). */
    private final Set<String> names = new HashSet<>(Set.of(MANIFEST.toLowerCase(Locale.ROOT)));

    /** A pack written to {@code out}, its files dated {@code at} (when the pack was made). */
    public PackWriter(OutputStream out, Instant at) {
        this.zip = new ZipOutputStream(out);
        this.time = FileTime.from(at);
    }

    /** Adds a file about no one customer; a name given twice, or the manifest's, is a programming error. */
    public void add(String name, String mediaType, byte[] body, String description) throws IOException {
        add(name, null, mediaType, body, description);
    }

    /**
     * Adds a file about {@code tenant}'s case. Its name stays inside the pack wherever it is unpacked: no {@code .},
     * {@code ..} nor empty segment, no leading {@code /}, no {@code \\}, no control character; and it differs from
     * every other name by more than case ({@code Acme} and {@code acme} are one file on a case-insensitive file
     * system). A name that breaks this is a programming error.
     */
    public void add(String name, String tenant, String mediaType, byte[] body, String description)
            throws IOException {
        checkName(name);
        if (!names.add(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("the pack already has a file named " + name + " (or so, but for case)");
        }
        write(name, body);
        files.add(new FileLine(name, tenant, mediaType, body.length, sha256(body), description));
    }

    /** Refuses a name that could leave the pack or name no file (see {@code add}). */
    static void checkName(String name) {
        if (name == null || name.isEmpty() || name.startsWith("/") || name.indexOf('\\') >= 0
                || name.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException("not a file name inside the pack: '" + name + "'");
        }
        for (String segment : name.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("not a file name inside the pack: '" + name + "' (segment '"
                        + segment + "')");
            }
        }
    }

    /** The files added so far, in order. */
    public List<FileLine> files() {
        return List.copyOf(files);
    }

    /** Writes the manifest (its bytes made by the caller from {@link #files()}) and ends the ZIP. */
    public void finish(byte[] manifest) throws IOException {
        write(MANIFEST, manifest);
        zip.finish();
        zip.flush();
    }

    private void write(String name, byte[] body) throws IOException {
        ZipEntry e = new ZipEntry(name);
        e.setLastModifiedTime(time);
        zip.putNextEntry(e);
        zip.write(body);
        zip.closeEntry();
    }

    /** The SHA-256 of {@code body}, lower-case hex (as {@code sha256sum} prints it). */
    public static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }
}
