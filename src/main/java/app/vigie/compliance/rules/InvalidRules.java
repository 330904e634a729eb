package app.vigie.compliance.rules;

/** A rule file that cannot be used: names the file, the line and the problem. Vigie does not start with it. */
public final class InvalidRules extends RuntimeException {
    private final String file;
    private final int line;

    public InvalidRules(String file, int line, String problem) {
        super(file + (line > 0 ? " line " + line : "") + ": " + problem);
        this.file = file;
        this.line = line;
    }

    public String file() {
        return file;
    }

    /** 1-based; 0 when the problem is the file as a whole. */
    public int line() {
        return line;
    }
}
