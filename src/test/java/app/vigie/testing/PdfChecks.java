package app.vigie.testing;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import org.verapdf.gf.foundry.VeraGreenfieldFoundryProvider;
import org.verapdf.pdfa.Foundries;
import org.verapdf.pdfa.PDFAParser;
import org.verapdf.pdfa.PDFAValidator;
import org.verapdf.pdfa.flavours.PDFAFlavour;
import org.verapdf.pdfa.results.TestAssertion;
import org.verapdf.pdfa.results.ValidationResult;

/**
 * Independent looks at a PDF: veraPDF's verdict, its text layer (poppler's pdftotext), its first page rendered to a
 * PNG kept under target/document-renders (pdftoppm) and read back by OCR (tesseract). .ci/run installs the tools.
 */
public final class PdfChecks {
    public static final Path RENDERS = Path.of("target", "document-renders");

    static {
        VeraGreenfieldFoundryProvider.initialise();
    }

    private PdfChecks() {
    }

    /** The PDF/A-3u rules the document breaks (none when it is compliant), each with its clause and test. */
    public static List<String> pdfa3uFailures(byte[] pdf) throws Exception {
        List<String> failures = new ArrayList<>();
        try (PDFAParser parser = Foundries.defaultInstance().createParser(new ByteArrayInputStream(pdf),
                PDFAFlavour.PDFA_3_U); PDFAValidator validator = Foundries.defaultInstance()
                        .createValidator(PDFAFlavour.PDFA_3_U, false)) {
            ValidationResult result = validator.validate(parser);
            for (TestAssertion a : result.getTestAssertions()) {
                if (a.getStatus() == TestAssertion.Status.FAILED) {
                    failures.add(a.getRuleId().getClause() + "-" + a.getRuleId().getTestNumber() + ": "
                            + a.getMessage());
                }
            }
            if (!result.isCompliant() && failures.isEmpty()) {
                failures.add("not compliant");
            }
        }
        return failures;
    }

    public static String text(byte[] pdf) throws Exception {
        Path in = Files.createTempFile("vigie", ".pdf");
        try {
            Files.write(in, pdf);
            return run("pdftotext", "-enc", "UTF-8", in.toString(), "-");
        } finally {
            Files.deleteIfExists(in);
        }
    }

    /** Renders page 1 at 150 dpi to target/document-renders/{name}.png; fails when the page is blank. */
    public static Path render(byte[] pdf, String name) throws Exception {
        Files.createDirectories(RENDERS);
        Path in = RENDERS.resolve(name + ".pdf");
        Files.write(in, pdf);
        run("pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", "-singlefile", in.toString(),
                RENDERS.resolve(name).toString());
        Path png = RENDERS.resolve(name + ".png");
        BufferedImage img = ImageIO.read(png.toFile());
        long dark = 0;
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                int rgb = img.getRGB(x, y);
                int lum = ((rgb >> 16) & 0xff) + ((rgb >> 8) & 0xff) + (rgb & 0xff);
                if (lum < 3 * 128) {
                    dark++;
                }
            }
        }
        if (dark < 200) {
            throw new AssertionError("page 1 of " + name + " renders nearly blank (" + dark + " dark samples): "
                    + png);
        }
        return png;
    }

    /**
     * Renders page 1 to a PNG (kept) and reads its upper part back by OCR: each key text must be seen on the
     * picture, white space folded.
     */
    public static void readBack(byte[] pdf, String name, String... keyTexts) throws Exception {
        render(pdf, name);
        // OCR reads the upper 60 % of the page (where the key texts are): a whole page takes it seconds more
        run("pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", "-x", "0", "-y", "0", "-W", "1240", "-H", "1050",
                "-singlefile", RENDERS.resolve(name + ".pdf").toString(), RENDERS.resolve(name + "-top").toString());
        String seen = ocr(RENDERS.resolve(name + "-top.png")).replaceAll("\\s+", " ");
        for (String key : keyTexts) {
            if (!seen.contains(key)) {
                throw new AssertionError("'" + key + "' is not seen on " + RENDERS.resolve(name + ".png")
                        + "; OCR read: " + seen);
            }
        }
    }

    /** A PKCS#12 keystore (password test-pass) with one self-signed RSA key under {@code alias}, made by keytool. */
    public static Path keystore(Path dir, String alias) throws Exception {
        Path ks = dir.resolve("signing.p12");
        run(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair", "-keystore",
                ks.toString(), "-storetype", "PKCS12", "-storepass", "test-pass", "-keypass", "test-pass", "-alias",
                alias, "-keyalg", "RSA", "-keysize", "2048", "-validity", "30", "-dname",
                "CN=Vigie test signer, O=Vigie, C=FR");
        return ks;
    }

    /** The text tesseract reads on a rendered page (French and English models). */
    public static String ocr(Path png) throws Exception {
        return run("tesseract", png.toString(), "-", "-l", "fra+eng");
    }

    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        } catch (IOException e) {
            throw new AssertionError(cmd[0] + " is needed by this test and is not installed; .ci/run installs it "
                    + "(apt-get install poppler-utils tesseract-ocr tesseract-ocr-fra)", e);
        }
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", cmd) + " failed: " + err);
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
