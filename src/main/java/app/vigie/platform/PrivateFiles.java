package app.vigie.platform;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;

import org.jboss.logging.Logger;

/**
 * Files only the service's own account may read: the data directory (0700) and the secrets kept in it (0600). A
 * secret is written to a file created with its final permissions and moved into place in one step, so no other
 * account can open it even for an instant, and a crash never leaves half a secret. Never logged.
 */
public final class PrivateFiles {
    private static final Logger LOG = Logger.getLogger(PrivateFiles.class);
    static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);
    private static final SecureRandom RANDOM = new SecureRandom();

    private PrivateFiles() {
    }

    /** Creates the directory (and its parents) if absent; the directory itself is then the owner's alone. */
    public static void directory(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir.getParent() == null ? dir : dir.getParent());
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
            } catch (FileAlreadyExistsException e) {
                // made meanwhile: its permissions are set below
            } catch (UnsupportedOperationException e) {
                Files.createDirectories(dir);
            }
        }
        restrict(dir, OWNER_DIR);
    }

    /**
     * The secret kept in {@code file}, made (32 random bytes, Base64) the first time. An existing file readable by
     * others is made private again, with a warning: whoever could read it may know the secret.
     */
    public static String secret(Path file) throws IOException {
        if (Files.exists(file)) {
            if (restrict(file, OWNER_FILE)) {
                LOG.warnf("%s was readable by other accounts; it is now private to this one. Rotate it if others "
                        + "could have read it.", file);
            }
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        }
        byte[] random = new byte[32];
        RANDOM.nextBytes(random);
        String secret = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        write(file, secret);
        return secret;
    }

    /** Writes {@code text} to {@code file}, readable by the owner only from its first byte, replacing it whole. */
    public static void write(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp;
        try {
            tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp",
                    PosixFilePermissions.asFileAttribute(OWNER_FILE));
        } catch (UnsupportedOperationException e) {
            tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
        }
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Removes every group and other permission; true when there were some. */
    static boolean restrict(Path path, Set<PosixFilePermission> wanted) throws IOException {
        try {
            Set<PosixFilePermission> now = Files.getPosixFilePermissions(path);
            boolean open = now.stream().anyMatch(OTHERS::contains);
            if (!now.equals(wanted)) {
                Files.setPosixFilePermissions(path, wanted);
            }
            return open;
        } catch (UnsupportedOperationException e) {
            return false; // not a POSIX file system: its own access control applies
        }
    }
}
