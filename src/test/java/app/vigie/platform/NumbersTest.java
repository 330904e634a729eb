package app.vigie.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.qute.Engine;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.notice.PdfRenderer;
import app.vigie.testing.PdfChecks;

/**
 * Counts in the reader's language: French groups thousands with a no-break space (349 790), English with a comma
 * (349,790), through {@code {n.grouped}} and the template instance's locale, as pages and documents render them.
 */
@QuarkusTest
class NumbersTest {
    @Inject
    Engine engine;

    private String render(Object n, String locale) {
        var t = engine.parse("{n.grouped}").data("n", n);
        return (locale == null ? t : t.setLocale(locale)).render();
    }

    @Test
    void frenchAndEnglishGroupThousandsEachTheirWay() {
        assertThat(render(349_790, "fr")).isEqualTo("349\u00a0790");
        assertThat(render(349_790L, "en")).isEqualTo("349,790");
        assertThat(render(1_000_000_000_000L, "fr")).isEqualTo("1\u00a0000\u00a0000\u00a0000\u00a0000");
        assertThat(render(999, "fr")).isEqualTo("999");
        assertThat(render(-1234, "en")).isEqualTo("-1,234");
        assertThat(render(1234, null)).as("no locale: English").isEqualTo("1,234");
        assertThat(Numbers.grouped(12_345, "fr")).isEqualTo("12\u00a0345");
    }

    /** The no-break space has its glyph in the documents' embedded fonts: a PDF/A reads back "349 790", seen. */
    @Test
    void aFrenchDocumentShowsTheGroupedNumber() throws Exception {
        String html = "<html lang=\"fr\"><head><title>Chiffres</title></head><body><p>Jetons exposés : "
                + render(349_790, "fr") + "</p></body></html>";
        byte[] pdf = PdfRenderer.render(html, "Chiffres", "fr", new PdfRenderer.Attachment("data.json", "Données",
                "application/json", "{}".getBytes(StandardCharsets.UTF_8)));
        assertThat(PdfChecks.pdfa3uFailures(pdf)).isEmpty();
        assertThat(PdfChecks.text(pdf).replace('\u00a0', ' ')).contains("Jetons exposés : 349 790");
        PdfChecks.readBack(pdf, "numbers-fr", "349 790");
    }
}
