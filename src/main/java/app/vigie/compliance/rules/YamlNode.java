package app.vigie.compliance.rules;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A node of a data file (compliance-rules/, root-causes/) with its file and line, so that every problem can say where
 * it is.
 */
public final class YamlNode {
    private final String file;
    private final Node node;
    private final String path;

    /** The root node of a YAML text; refuses an empty text, invalid YAML and a key given twice. */
    public static YamlNode parse(String file, String text) {
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            Node n = new Yaml(options).compose(new StringReader(text));
            if (n == null) {
                throw new InvalidRules(file, 0, "empty file");
            }
            return new YamlNode(file, n, "");
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1;
            throw new InvalidRules(file, line, "not valid YAML: " + e.getProblem());
        } catch (YAMLException e) {
            throw new InvalidRules(file, 0, "not valid YAML: " + e.getMessage());
        }
    }

    YamlNode(String file, Node node, String path) {
        this.file = file;
        this.node = node;
        this.path = path;
    }

    public int line() {
        return node.getStartMark().getLine() + 1;
    }

    public String path() {
        return path;
    }

    public InvalidRules problem(String what) {
        return new InvalidRules(file, line(), (path.isEmpty() ? "" : "'" + path + "': ") + what);
    }

    public boolean isMap() {
        return node instanceof MappingNode;
    }

    public boolean isScalar() {
        return node instanceof ScalarNode;
    }

    /** The keys and values of a mapping, in file order; refuses keys outside {@code allowed} (a typo is an error). */
    public Map<String, YamlNode> map(Set<String> allowed) {
        if (!(node instanceof MappingNode m)) {
            throw problem("expected a mapping (key: value)");
        }
        Map<String, YamlNode> out = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) {
                throw new YamlNode(file, t.getKeyNode(), path).problem("a key must be a plain word");
            }
            String key = k.getValue();
            YamlNode child = new YamlNode(file, t.getValueNode(), path.isEmpty() ? key : path + "." + key);
            if (allowed != null && !allowed.contains(key)) {
                throw new YamlNode(file, k, path).problem("unknown key '" + key + "'; expected one of "
                        + String.join(", ", new TreeSet<>(allowed)));
            }
            if (out.put(key, child) != null) {
                throw new YamlNode(file, k, path).problem("key '" + key + "' given twice");
            }
        }
        return out;
    }

    public List<YamlNode> list() {
        if (!(node instanceof SequenceNode s)) {
            throw problem("expected a list");
        }
        List<YamlNode> out = new ArrayList<>();
        for (int i = 0; i < s.getValue().size(); i++) {
            out.add(new YamlNode(file, s.getValue().get(i), path + "[" + i + "]"));
        }
        return out;
    }

    public String text() {
        if (!(node instanceof ScalarNode s)) {
            throw problem("expected a single value");
        }
        return s.getValue();
    }

    /** A list of single values, or one value taken as a list of one. */
    public List<String> texts() {
        if (node instanceof ScalarNode s) {
            return List.of(s.getValue());
        }
        List<String> out = new ArrayList<>();
        for (YamlNode n : list()) {
            out.add(n.text());
        }
        return out;
    }

    /**
     * A text in each of {@code languages}: one value (a proper name, the same in every language) or
     * {@code {en: ..., fr: ...}} with every language given.
     */
    public Map<String, String> inEachLanguage(List<String> languages) {
        Map<String, String> out = new LinkedHashMap<>();
        if (isScalar()) {
            languages.forEach(l -> out.put(l, text()));
            return Map.copyOf(out);
        }
        Map<String, YamlNode> m = map(Set.copyOf(languages));
        for (String l : languages) {
            out.put(l, required(m, l, this).text());
        }
        return Map.copyOf(out);
    }

    public double number() {
        try {
            return Double.parseDouble(text());
        } catch (NumberFormatException e) {
            throw problem("expected a number, got '" + text() + "'");
        }
    }

    public boolean bool() {
        return switch (text()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw problem("expected true or false, got '" + text() + "'");
        };
    }

    public static YamlNode required(Map<String, YamlNode> m, String key, YamlNode parent) {
        YamlNode n = m.get(key);
        if (n == null) {
            throw parent.problem("'" + key + "' is required");
        }
        return n;
    }
}
