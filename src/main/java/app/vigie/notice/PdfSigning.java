package app.vigie.notice;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Security;
import java.security.cert.Certificate;
import java.util.Collections;

import org.bouncycastle.jce.provider.BouncyCastleProvider;

import com.itextpdf.kernel.pdf.PdfReader;
import com.itextpdf.kernel.pdf.StampingProperties;
import com.itextpdf.signatures.PdfPadesSigner;
import com.itextpdf.signatures.SignerProperties;

/**
 * Signs a PDF (PAdES baseline B, an invisible signature added as an incremental update, so a PDF/A stays PDF/A) with
 * the key of a PKCS#12 keystore. Plain Java.
 */
public final class PdfSigning {
    private final PrivateKey key;
    private final Certificate[] chain;

    private PdfSigning(PrivateKey key, Certificate[] chain) {
        this.key = key;
        this.chain = chain;
    }

    /** The key {@code alias} (the keystore's only key when null) of a PKCS#12 file; a clear error otherwise. */
    public static PdfSigning load(Path keystore, char[] password, String alias) {
        if (Security.getProvider(BouncyCastleProvider.PROVIDER_NAME) == null) {
            Security.addProvider(new BouncyCastleProvider());
        }
        try (InputStream in = Files.newInputStream(keystore)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, password);
            String a = alias;
            if (a == null) {
                for (String candidate : Collections.list(ks.aliases())) {
                    if (ks.isKeyEntry(candidate)) {
                        if (a != null) {
                            throw new IllegalStateException("the keystore " + keystore + " holds several keys: name "
                                    + "one with vigie.documents.signing.alias");
                        }
                        a = candidate;
                    }
                }
            }
            if (a == null || !ks.isKeyEntry(a)) {
                throw new IllegalStateException("no key " + (a == null ? "" : "'" + a + "' ") + "in the keystore "
                        + keystore);
            }
            return new PdfSigning((PrivateKey) ks.getKey(a, password), ks.getCertificateChain(a));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the signing keystore " + keystore + ": " + e.getMessage(), e);
        }
    }

    public byte[] sign(byte[] pdf, String reason) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(pdf.length + 32_768);
        try {
            PdfPadesSigner signer = new PdfPadesSigner(new PdfReader(new ByteArrayInputStream(pdf)), out);
            signer.setStampingProperties(new StampingProperties().useAppendMode());
            signer.signWithBaselineBProfile(new SignerProperties().setFieldName("vigie-signature")
                    .setReason(reason).setLocation("Vigie"), chain, key);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("signing the PDF failed: " + e.getMessage(), e);
        }
        return out.toByteArray();
    }
}
