package app.vigie.notice;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;

/** The key that signs the documents' PDFs (docs/documents.md, "Signature"); unset: PDFs are not signed. */
@ConfigMapping(prefix = "vigie.documents.signing")
public interface SigningConfig {

    /** A PKCS#12 keystore's path. */
    Optional<String> keystore();

    Optional<String> password();

    /** The key's alias in the keystore (its only key when unset). */
    Optional<String> alias();
}
