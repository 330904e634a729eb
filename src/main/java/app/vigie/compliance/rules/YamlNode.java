package app.vigie.compliance.rules;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** A node of a rule file with its file and line, so that every problem can say where it is. */
final class YamlNode {
    private final String file;
    private final Node node;
    private final String path;

    YamlNode(String file, Node node, String path) {
        this.file = file;
        this.node = node;
        this.path = path;
    }

    int line() {
        return node.getStartMark().getLine() + 1;
    }

    String path() {
        return path;
    }

    InvalidRules problem(String what) {
        return new InvalidRules(file, line(), (path.isEmpty() ? "" : "'" + path + "': ") + what);
    }

    boolean isMap() {
        return node instanceof MappingNode;
    }

    boolean isScalar() {
        return node instanceof ScalarNode;
    }

    /** The keys and values of a mapping, in file order; refuses keys outside {@code allowed} (a typo is an error). */
    Map<String, YamlNode> map(Set<String> allowed) {
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

    List<YamlNode> list() {
        if (!(node instanceof SequenceNode s)) {
            throw problem("expected a list");
        }
        List<YamlNode> out = new ArrayList<>();
        for (int i = 0; i < s.getValue().size(); i++) {
            out.add(new YamlNode(file, s.getValue().get(i), path + "[" + i + "]"));
        }
        return out;
    }

    String text() {
        if (!(node instanceof ScalarNode s)) {
            throw problem("expected a single value");
        }
        return s.getValue();
    }

    /** A list of single values, or one value taken as a list of one. */
    List<String> texts() {
        if (node instanceof ScalarNode s) {
            return List.of(s.getValue());
        }
        List<String> out = new ArrayList<>();
        for (YamlNode n : list()) {
            out.add(n.text());
        }
        return out;
    }

    double number() {
        try {
            return Double.parseDouble(text());
        } catch (NumberFormatException e) {
            throw problem("expected a number, got '" + text() + "'");
        }
    }

    boolean bool() {
        return switch (text()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw problem("expected true or false, got '" + text() + "'");
        };
    }

    static YamlNode required(Map<String, YamlNode> m, String key, YamlNode parent) {
        YamlNode n = m.get(key);
        if (n == null) {
            throw parent.problem("'" + key + "' is required");
        }
        return n;
    }
}
