package app.vigie.detection.core;

/** Whether the victim is of another tenant than the reader. */
public enum ExposureKind {
    CROSS_TENANT, INTRA_TENANT
}
