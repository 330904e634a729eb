package app.vigie.notice;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import app.vigie.testing.PdfChecks;

/**
 * Documents rendered at once by several requests share the fonts' list (PdfRenderer) and the annexes' font programs
 * (PdfAnnex): each PDF is still PDF/A-3u and reads the same as one rendered alone.
 */
class PdfConcurrencyTest {

    private static String html(int rows) {
        StringBuilder body = new StringBuilder("<!DOCTYPE html><html lang=\"fr\"><head><meta charset=\"UTF-8\"/>"
                + "<title>Alerte – essai</title><style>body { font-family: \"Noto Sans\", sans-serif; }</style>"
                + "</head><body><h1>Alerte de violation</h1><p>Données exposées : <b>accents</b> é à ç € ≥.</p>"
                + "<table><tr><th>Requête</th><th>Jetons</th></tr>");
        for (int i = 0; i < rows; i++) {
            body.append("<tr><td><span class=\"id\">req-").append(i).append("</span></td><td>8</td></tr>");
        }
        return body.append("</table></body></html>").toString();
    }

    private static PdfAnnex annex(int rows) {
        List<List<String>> lines = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            lines.add(List.of("requête-" + i, Integer.toString(i), "2026-10-25 02:30:00 +02:00 é"));
        }
        return new PdfAnnex("annex-a", "Annexe A – vos requêtes", List.of(new PdfAnnex.Column("Requête", 40, false),
                new PdfAnnex.Column("Jetons", 20, true), new PdfAnnex.Column("Première exposition", 40, false)),
                lines);
    }

    private static byte[] render(int seed) {
        return PdfRenderer.render(html(30 + seed % 3), "Alerte – essai", "fr",
                new PdfRenderer.Attachment("alerte.json", "Les données", "application/json",
                        "{\"essai\": true}".getBytes(StandardCharsets.UTF_8)),
                List.of(new PdfRenderer.Attachment("requests.csv", "Les requêtes (CSV)", "text/csv",
                        "list,request\r\nexposed,r1\r\n".getBytes(StandardCharsets.UTF_8))),
                List.of(annex(200 + seed % 3)));
    }

    @Test
    void documentsRenderedAtOnceAreEachValidAndReadAsWhenRenderedAlone() throws Exception {
        List<String> alone = new ArrayList<>();
        for (int seed = 0; seed < 3; seed++) {
            alone.add(PdfChecks.text(render(seed)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<byte[]>> runs = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                int seed = i;
                runs.add(pool.submit(() -> render(seed)));
            }
            for (int i = 0; i < runs.size(); i++) {
                byte[] pdf = runs.get(i).get();
                assertThat(PdfChecks.text(pdf)).as("document " + i).isEqualTo(alone.get(i % 3));
                if (i < 4) {
                    assertThat(PdfChecks.pdfa3uFailures(pdf)).as("document " + i).isEmpty();
                }
            }
        } finally {
            pool.shutdown();
        }
    }
}
