package app.vigie.notice;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.itextpdf.kernel.pdf.PdfDictionary;
import com.itextpdf.kernel.pdf.PdfDocument;
import com.itextpdf.kernel.pdf.PdfName;
import com.itextpdf.kernel.pdf.PdfObject;
import com.itextpdf.kernel.pdf.PdfReader;
import com.itextpdf.kernel.pdf.PdfStream;
import com.sun.net.httpserver.HttpServer;

import app.vigie.testing.PdfChecks;

/**
 * A document's HTML that names files and network addresses (a template edited carelessly, or markup that got past
 * escaping): the renderer reads none of them. What a statement says reaches the document as text.
 */
class PdfResourcesTest {
    @TempDir
    Path dir;

    @Test
    void noFileAndNoNetworkAddressIsRead() throws Exception {
        Path image = dir.resolve("secret.png");
        ImageIO.write(new BufferedImage(8, 8, BufferedImage.TYPE_INT_RGB), "png", image.toFile());
        Path css = dir.resolve("evil.css");
        Files.writeString(css, "p { color: red }");
        AtomicInteger hits = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            hits.incrementAndGet();
            byte[] png = Files.readAllBytes(image);
            exchange.sendResponseHeaders(200, png.length);
            exchange.getResponseBody().write(png);
            exchange.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            String html = "<html lang=\"en\"><head><title>t</title><link rel=\"stylesheet\" href=\"" + css.toUri()
                    + "\"><link rel=\"stylesheet\" href=\"" + url + "/style.css\"></head><body><p>Statement: "
                    + "&lt;img src=\"file:///etc/passwd\"&gt;</p><img src=\"" + image.toUri() + "\" alt=\"a\">"
                    + "<img src=\"" + url + "/pixel.png\" alt=\"b\"><img src=\"file:///etc/passwd\" alt=\"c\">"
                    + "</body></html>";
            byte[] pdf = PdfRenderer.render(html, "t", "en", new PdfRenderer.Attachment("t.json", "data",
                    "application/json", "{}".getBytes(StandardCharsets.UTF_8)));
            assertThat(hits.get()).as("requests to the network address").isZero();
            assertThat(images(pdf)).as("images embedded").isZero();
            assertThat(PdfChecks.text(pdf)).contains("<img src=\"file:///etc/passwd\">");
        } finally {
            server.stop(0);
        }
    }

    private static int images(byte[] pdf) throws Exception {
        int n = 0;
        try (PdfDocument doc = new PdfDocument(new PdfReader(new ByteArrayInputStream(pdf)))) {
            for (int i = 1; i < doc.getNumberOfPdfObjects(); i++) {
                PdfObject o = doc.getPdfObject(i);
                if (o instanceof PdfStream s && PdfName.Image.equals(((PdfDictionary) s).getAsName(PdfName.Subtype))) {
                    n++;
                }
            }
        }
        return n;
    }
}
