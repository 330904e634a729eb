package app.vigie.notice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.itextpdf.kernel.pdf.PdfDocument;
import com.itextpdf.kernel.pdf.PdfReader;
import com.itextpdf.signatures.PdfPKCS7;
import com.itextpdf.signatures.SignatureUtil;

import app.vigie.testing.PdfChecks;

/** A signed PDF stays PDF/A-3u, its signature covers the whole document and verifies; a bad keystore is named. */
class PdfSigningTest {

    @Test
    void aSignedDocumentStaysPdfA3uAndItsSignatureVerifies(@TempDir Path tmp) throws Exception {
        byte[] pdf = PdfRenderer.render("<html lang=\"fr\"><body style=\"font-family: 'Noto Sans'\"><h1>Données "
                + "signées : 12 €</h1></body></html>", "Test", "fr", new PdfRenderer.Attachment("data.json",
                        "Les données", "application/json", "{\"a\":1}".getBytes(StandardCharsets.UTF_8)));
        PdfSigning signing = PdfSigning.load(PdfChecks.keystore(tmp, "vigie"), "test-pass".toCharArray(), null);
        byte[] signed = signing.sign(pdf, "Registre");
        assertThat(PdfChecks.pdfa3uFailures(signed)).isEmpty();
        try (PdfDocument doc = new PdfDocument(new PdfReader(new ByteArrayInputStream(signed)))) {
            SignatureUtil util = new SignatureUtil(doc);
            List<String> names = util.getSignatureNames();
            assertThat(names).containsExactly("vigie-signature");
            assertThat(util.signatureCoversWholeDocument("vigie-signature")).isTrue();
            PdfPKCS7 pkcs7 = util.readSignatureData("vigie-signature");
            assertThat(pkcs7.verifySignatureIntegrityAndAuthenticity()).isTrue();
            assertThat(pkcs7.getSigningCertificate().getSubjectX500Principal().getName()).contains("Vigie test signer");
            assertThat(pkcs7.getReason()).isEqualTo("Registre");
        }
        assertThat(PdfChecks.text(signed)).contains("Données signées : 12 €");
        PdfChecks.readBack(signed, "signed", "Données signées");
    }

    @Test
    void aMissingKeyOrAWrongPasswordIsNamed(@TempDir Path tmp) throws Exception {
        Path ks = PdfChecks.keystore(tmp, "vigie");
        assertThatThrownBy(() -> PdfSigning.load(ks, "wrong".toCharArray(), null))
                .hasMessageContaining("cannot read the signing keystore");
        assertThatThrownBy(() -> PdfSigning.load(ks, "test-pass".toCharArray(), "other"))
                .hasMessageContaining("no key 'other'");
        assertThatThrownBy(() -> PdfSigning.load(tmp.resolve("none.p12"), "x".toCharArray(), null))
                .hasMessageContaining("none.p12");
    }
}
