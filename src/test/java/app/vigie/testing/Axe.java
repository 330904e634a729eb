package app.vigie.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.microsoft.playwright.Page;

/**
 * axe-core, Deque's accessibility checker, run in a page: the WCAG 2.0/2.1 A and AA rules. Fetched once from the
 * npm registry ({@code npm pack}) into target/axe and checked against its pinned SHA-256 before any use.
 */
public final class Axe {
    static final String VERSION = "4.11.0";
    static final String SHA256 = "e9e5863c33a874f09bc01acd9234b7e3c871479f5eef8802fa582544465e6d01";
    private static String source;

    private Axe() {
    }

    static synchronized String source() throws IOException, InterruptedException {
        if (source != null) {
            return source;
        }
        Path dir = Path.of("target", "axe");
        Path js = dir.resolve("package/axe.min.js");
        if (!Files.exists(js)) {
            Files.createDirectories(dir);
            run(dir, "npm", "pack", "axe-core@" + VERSION, "--silent");
            run(dir, "tar", "-xzf", "axe-core-" + VERSION + ".tgz", "package/axe.min.js");
        }
        byte[] bytes = Files.readAllBytes(js);
        try {
            String sum = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
            if (!sum.equals(SHA256)) {
                throw new AssertionError(js + " is not axe-core " + VERSION + " as pinned (SHA-256 " + sum + ")");
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        source = new String(bytes, StandardCharsets.UTF_8);
        return source;
    }

    private static void run(Path dir, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed (npm is needed: .ci/run installs it):\n"
                    + out);
        }
    }

    /** The WCAG A/AA violations on the page as "rule: target (summary)", one per offending element. */
    @SuppressWarnings("unchecked")
    public static List<String> violations(Page page) throws IOException, InterruptedException {
        page.evaluate(source());
        return (List<String>) page.evaluate("""
                async () => {
                  const r = await axe.run(document, { runOnly: { type: 'tag',
                      values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
                  if (r.passes.length < 10) { return ['axe-core ran only ' + r.passes.length + ' rules']; }
                  return r.violations.flatMap(v => v.nodes.map(n => v.id + ': ' + n.target.join(' ') + ' ('
                      + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 160) + ')'));
                }""");
    }
}
