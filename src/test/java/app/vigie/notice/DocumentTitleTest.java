package app.vigie.notice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A document's title (its PDF's, its signature's reason) is the one its template gives its page. */
class DocumentTitleTest {

    @Test
    void theTitleIsThePagesTitleAsText() {
        String html = "<!DOCTYPE html><html lang=\"fr\"><head><meta charset=\"UTF-8\">\n<title>Alerte – Crédit Léger "
                + "&amp; Fils &lt;SA&gt; &quot;FR&quot; l&#39;an</title></head><body><h1>x</h1></body></html>";
        assertThat(DocumentRenderer.title(html)).isEqualTo("Alerte – Crédit Léger & Fils <SA> \"FR\" l'an");
        assertThat(DocumentRenderer.title("<title>  &amp;lt;  </title>")).as("unescaped once").isEqualTo("&lt;");
    }

    @Test
    void aTemplateWithoutATitleIsAnErrorNotAnUntitledDocument() {
        assertThatThrownBy(() -> DocumentRenderer.title("<html><body><title>not closed</body></html>"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("<title>");
        assertThatThrownBy(() -> DocumentRenderer.title("<html><body>none</body></html>"))
                .isInstanceOf(IllegalStateException.class);
    }
}
