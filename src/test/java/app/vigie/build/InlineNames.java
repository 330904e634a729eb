package app.vigie.build;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds types named in full inside Java code ({@code app.vigie.alert.AlertService alerts;}) where an import would
 * show the dependency. Comments, strings and the package and import lines are not code; a full name is left alone
 * where its simple name is taken (imported from elsewhere, declared in the file or its package, or in java.lang).
 */
final class InlineNames {
    private static final Pattern NAME = Pattern.compile(
            "(?<![\\w.])((?:app|java|javax|jakarta|io|org|com|net)\\.(?:[a-z][a-z0-9_]*\\.)*)([A-Z][A-Za-z0-9_]*)");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import (?!static)([\\w.]+)\\.([A-Z]\\w*);");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|interface|enum|record)\\s+([A-Z]\\w*)");
    private static final Pattern HEADER = Pattern.compile("(?m)^(?:package|import) [^;]*;");

    private InlineNames() {
    }

    /** "file:line: name" for each inline full name in {@code source}, the text of {@code file}. */
    static List<String> of(Path file, String source) {
        Matcher pm = PACKAGE.matcher(source);
        String pkg = pm.find() ? pm.group(1) : "";
        Map<String, String> imported = new HashMap<>();
        for (Matcher m = IMPORT.matcher(source); m.find();) {
            imported.put(m.group(2), m.group(1) + "." + m.group(2));
        }
        Set<String> taken = new HashSet<>();
        for (Matcher m = DECLARED.matcher(source); m.find();) {
            taken.add(m.group(1));
        }
        Path dir = file.getParent();
        if (dir != null && Files.isDirectory(dir)) {
            try (var siblings = Files.list(dir)) {
                siblings.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".java"))
                        .forEach(n -> taken.add(n.substring(0, n.length() - 5)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        String code = blankNonCode(source);
        List<String> found = new ArrayList<>();
        for (Matcher m = NAME.matcher(code); m.find();) {
            String prefix = m.group(1);
            String simple = m.group(2);
            String full = prefix + simple;
            String home = prefix.substring(0, prefix.length() - 1);
            boolean clash = (imported.containsKey(simple) && !imported.get(simple).equals(full))
                    || (taken.contains(simple) && !home.equals(pkg))
                    || (inJavaLang(simple) && !home.equals("java.lang"));
            if (!clash) {
                found.add(file + ":" + line(source, m.start()) + ": " + full);
            }
        }
        return found;
    }

    /** The source with comments, string and character literals, text blocks and the header blanked out. */
    static String blankNonCode(String s) {
        StringBuilder b = new StringBuilder(s);
        int i = 0;
        int n = s.length();
        while (i < n) {
            int end;
            if (s.startsWith("//", i)) {
                end = s.indexOf('\n', i);
                end = end < 0 ? n : end;
            } else if (s.startsWith("/*", i)) {
                end = s.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
            } else if (s.startsWith("\"\"\"", i)) {
                end = s.indexOf("\"\"\"", i + 3);
                while (end > 0 && s.charAt(end - 1) == '\\') {
                    end = s.indexOf("\"\"\"", end + 1);
                }
                end = end < 0 ? n : end + 3;
            } else if (s.charAt(i) == '"' || s.charAt(i) == '\'') {
                char q = s.charAt(i);
                end = i + 1;
                while (end < n && s.charAt(end) != q) {
                    end += s.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(n, end + 1);
            } else {
                i++;
                continue;
            }
            blank(b, i, end);
            i = end;
        }
        for (Matcher m = HEADER.matcher(b); m.find();) {
            blank(b, m.start(), m.end());
        }
        return b.toString();
    }

    private static void blank(StringBuilder b, int from, int to) {
        for (int k = from; k < to; k++) {
            if (b.charAt(k) != '\n') {
                b.setCharAt(k, ' ');
            }
        }
    }

    private static boolean inJavaLang(String simple) {
        try {
            Class.forName("java.lang." + simple);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static int line(String s, int at) {
        int line = 1;
        for (int k = 0; k < at; k++) {
            if (s.charAt(k) == '\n') {
                line++;
            }
        }
        return line;
    }
}
