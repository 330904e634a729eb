package app.vigie.auditlog.record;

/** The content fingerprint of one logical page of a request, as a lower-case hex string. */
public record PageFingerprint(int logicalPage, String hex) {
}
