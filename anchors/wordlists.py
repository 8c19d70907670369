"""Word lists and cue phrases for reading anchors out of memory text (data only).

The cue entries are regular-expression fragments, matched case-insensitively against one
clause of lower-cased prose; ``anchors.clauses`` compiles them and decides what they mean.
"""

from __future__ import annotations

__all__ = [
    "COMMON_WORDS",
    "DEFINES_CUE",
    "DEP_AFTER",
    "DEP_BEFORE",
    "DIST_TO_IMPORT",
    "FILLER_WORDS",
    "FUNCTION_WORDS",
    "GENERIC_NOUNS",
    "HYPOTHETICAL_CUES",
    "IMPORT_AFTER",
    "IMPORT_BEFORE",
    "NEGATION_MARKERS",
    "NOT_A_USE_CUES",
    "OTHER_PARTY_CUES",
    "PARTIAL_QUALIFIER",
    "POST_ANYWHERE",
    "POST_REMOVAL",
    "POST_UNUSED",
    "PRONOUNS",
    "REMOVAL_CUES",
    "REPLACEMENT_CUES",
    "STRONG_SLOT",
    "SUBJECT_VERBS",
    "USAGE_NEGATION_CUES",
    "USAGE_SLOT",
    "WEAK_NEGATION_CUES",
]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that never name code and that carry the grammar the cues read (not, and, was...):
# they are not even candidates.
FUNCTION_WORDS: frozenset[str] = _words(
    """
    a an the and or nor but if then than so as at by for from in into of off on onto out
    over to up upon via with within without about after before between through under until
    we i you he she it they me us him her them my our your his its their mine ours theirs
    this that these those which who whom whose what where when why how there here
    is are was were be been being am do does did done doing has have had having
    will would shall should can could may might must not no never don't doesn't didn't
    isn't aren't wasn't weren't won't can't also just only still now then too very even
    any some all each every both either neither other another such own same more most
    longer instead rather whether while though although because since unless
    """
)

# Frequent English words (FUNCTION_WORDS included), and programming words that collide with
# module or distribution names (path, store, data, time, json, queue, click...). Such a word
# becomes an anchor only when some file imports exactly that name: prose is full of them.
COMMON_WORDS: frozenset[str] = FUNCTION_WORDS | _words(
    """
    a about above across actually add added after again against ago all almost along already
    also although always am among an and another any anyone anything anyway anywhere are
    around as ask at away back bad be because been before being below best better between
    big both but by call called calls can cannot case cases change changed changes check
    checks clear close come could day days did different do does doing done down during each
    early easy either else end enough even ever every everything example fact far few find
    first for found from full get gets getting give given go goes going gone good got great
    had happen has have having he help her here high him his how however i if in instead into
    is it its itself just keep kind know known large last later least less let like likely
    line little long longer look lot low made main make makes making many may maybe me mean
    might more most much must my name need needs never new next no none nor not nothing now
    number of off often old on once one only or other others our out over own part place
    point put rather read real really right run runs said same say see seem set several shall
    she should show side simple since so some someone something sometimes soon still stop such
    sure take taken than that the their them then there these they thing things think this
    those though through thus to today together too top true try turn two under until up upon
    us use used uses using usually very want wants was way ways we well went were what when
    where whether which while who whole why will with within without work works would yes yet
    you your

    able access action active address after all allow api app apps application array async
    auth backend base basic batch bin binary bit black block body bool boot bottle buffer bug
    build builder builtins bus cache calendar callback cancel chain channel chart child class
    clean cli click client clients cloud cmd code codec codes collections column command
    commands common compat compile component config connection console constants content
    context control copy core count crypto csv cursor daemon data database date db debug
    decimal default delete deploy dev device dict diff dir directory dis doc docs document
    domain download driver dump edge email encoding engine entry enum env environment error
    errors event events exception exceptions export external extra fabric factory fast field
    fields file files filter fix flag flask float flow format forms frame framework front
    function functions gateway gc glob global graph group handler handlers hash header heap
    helper helpers history home hook host html http id image import index info init input
    inspect install instance int interface internal invoke io item items job jobs json key
    keys keyword lib library link list load loader local locale lock log logger logging logic
    login loop mail manager map mapping markdown math memory message meta method middleware
    migration mock mode model models module modules monitor names native network node notify
    numbers object ok open operator option options order orm os output package packages page pager
    parse parser patch path paths pattern payload pickle pipeline platform plugin plugins pool
    port post pprint process profile project property protocol provider proxy queue random
    range raw re record redirect reference registry release remote render report repo
    repository resolver resource response rest result results retry rich route router
    routes rule rules runner runtime sample save scan schema scheduler scope script search
    secret secrets security select serial server service services session setting settings
    setup shell signal site six size socket sort source spec stack stat state static
    statistics status storage store stream string struct style symbol sync system table task
    tasks template temp test testing tests text thread threads time timer timeout token tokens
    tool tools trace tree trigger type types typing ui unit update upload url user users util
    utils uuid validate validator value values version view views wave web worker workers
    wrapper xml zone
    """
)

# Distributions whose import name differs from the distribution name (PEP 503 normalised).
DIST_TO_IMPORT: dict[str, str] = {
    "pyyaml": "yaml",
    "beautifulsoup4": "bs4",
    "beautifulsoup": "bs4",
    "pillow": "PIL",
    "scikit-learn": "sklearn",
    "python-dateutil": "dateutil",
    "python-dotenv": "dotenv",
    "opencv-python": "cv2",
    "pyjwt": "jwt",
    "attrs": "attr",
    "gitpython": "git",
    "psycopg2-binary": "psycopg2",
    "psycopg-binary": "psycopg",
    "mysqlclient": "MySQLdb",
    "pymupdf": "fitz",
    "protobuf": "google.protobuf",
    "typing-extensions": "typing_extensions",
    "tree-sitter": "tree_sitter",
    "tree-sitter-python": "tree_sitter_python",
    "msgpack-python": "msgpack",
    "pyzmq": "zmq",
    "pyserial": "serial",
    "python-multipart": "multipart",
}

# Words right next to a name that say the writer means a declared distribution
# ("the duckdb package", "depends on httpx") or an import ("the yaml module").
DEP_AFTER = (
    r"\s+(?:package|dependency|distribution|dist|library|crate)\b"
    # "rayon support is an optional dependency": what it brings, then what it is
    r"|(?:\s+(?:support|integration))?\s+(?:is|are)\s+(?:a\s+|an\s+)?"
    r"(?:(?:declared|direct|runtime|run-time|dev|development|optional|peer)[\s-]+)?"
    r"(?:dependency|dependencies|installed|pinned)"
    # "X sits in the extension's runtime dependencies"
    r"|\s+(?:sits?|is|are|lives?|belongs?)\s+(?:in|among)\s+(?:the\s+)?(?:[\w'’-]+\s+){0,3}?"
    r"(?:dependencies|devdependencies|deps|requirements)\b"
)
DEP_BEFORE = (
    r"(?:depends?\s+on|depended\s+on|dependency\s+on|install(?:s|ed)?|pip\s+install|"
    r"packages?|requires?|the\s+dependency|pin(?:s|ned)?)\s+(?:(?:the|a|an)\s+)?[`'\"]?$"
)
IMPORT_AFTER = (
    r"\s+module\b|\s+(?:is|are|was|were)\s+(?:no\s+longer\s+|not\s+|never\s+)?imported\b"
)
# ("at import time", "on import": when, not what is imported)
IMPORT_BEFORE = (r"(?:(?<!\bat\s)(?<!\bon\s)(?<!during\s)imports?|imported|module)\s+"
                 r"(?:(?:the|a|an)\s+)?[`'\"]?$")
# A clause saying its subject defines a name: a symbol claim for the scope itself.
DEFINES_CUE = (
    r"\b(?:defines?|declares?|implements?|has\s+(?:a|the)\s+(?:function|class|method)|"
    r"(?:is|are)\s+(?:defined|declared|implemented|located|kept|found)\s+(?:in|under)|"
    r"(?:is|are)\s+in|resides?\s+in|lives?\s+(?:in|under)|sits?\s+in)\b"
)

# Between a cue and the thing it governs, only these words may stand.
FILLER_WORDS = _words(
    "the a an any our its this that these those old legacy more of either neither even"
)
# Nouns that may follow a name without changing what is named ("the billing service").
GENERIC_NOUNS = _words(
    """service services module modules package packages file files layer component subsystem
    code library lib directory dir folder app client integration support backend dependency
    usage calls import imports driver binding bindings handler worker api cache"""
)
PRONOUNS = _words("it this that these those they which")

_VERB = (
    r"(?:use|uses|using|import|imports|importing|depend\s+on|depends\s+on|need|needs|"
    r"rely\s+on|relies\s+on|require|requires|ship|ships|read|reads|call|calls|install|"
    r"installs|have|has|bundle|bundles|support|supports|include|includes|"
    r"pulls?\s+in|brings?\s+in|ships?\s+with)"
)
_PAST = (
    r"(?:used|imported|depended\s+on|relied\s+on|needed|required|shipped|read|called|"
    r"installed|had|bundled|supported|included)"
)
_GERUND = r"(?:using|importing|depending\s+on|relying\s+on|reading|calling|shipping|needing)"

# Negation cues that end right before the negated thing ("we no longer use |redis").
# Removal cues say a thing is gone, so they negate files, symbols, env names and packages.
REMOVAL_CUES = (
    # ("snippets are deleted by a Celery task": who deletes, not what is gone)
    r"\b(?:dropped|removed|deleted|ditched|abandoned|eliminated|retired|uninstalled)\s+(?!by\b)",
    # "there is no `Console.export_svg` method any more"
    r"\bthere\s+(?:is|are)\s+no\s+(?:(?:longer|more)\s+)?(?:(?:a|an|the|such)\s+)?",
    r"\b(?:got|gotten)\s+rid\s+of\s+",
    r"\b(?:ripped|phased|torn|tore|took|taken)\s+out\s+",
)
# Usage cues say a thing is not used: that negates an import, a dependency or an env read,
# but not a file or a definition ("we no longer call verify()" does not delete it).
USAGE_NEGATION_CUES = (
    rf"\bno\s+longer\s+{_VERB}\s+",
    rf"\b(?:do|does|did)\s*(?:not|n[’']t)\s+{_VERB}\s+",
    rf"\b(?:have|has|had)\s*(?:not|n[’']t)\s+(?:been\s+)?(?:{_PAST}|{_GERUND})\s+",
    rf"\b(?:is|are|was|were|am|'re|’re)\s*(?:not|n[’']t)\s+{_GERUND}\s+",
    rf"\bnever\s+(?:{_VERB}|{_PAST})\s+",
    rf"\b(?:stopped|stop|quit|ceased)\s+{_GERUND}\s+",
    # "we stopped testing against X", "we quit deploying with X"
    r"\b(?:stopped|quit|ceased)\s+[a-z]+ing\s+(?:(?:against|with|on|through|via|in)\s+)?",
    rf"\b(?:previously|formerly|originally)\s+{_PAST}\s+",
    # "used to" is checked in code: "X is used to call" is present tense, not the past.
    rf"\bused\s+to\s+{_VERB}\s+",
    # "nothing imports X", "no code reads FOO", "none of the views use X": no part of the
    # code does, which is what an absent anchor checks.
    # "nothing in the isso package imports X": a place between them scopes, never negates.
    r"\b(?:nothing|no\s+(?:other\s+)?(?:code|module|modules|file|files)|none\s+of\s+(?:the|our)"
    r"\s+[a-z]+)(?:\s+(?:in|under|inside|within)\s+(?:the\s+|our\s+)?[\w./-]+"
    r"(?:\s+(?:package|module|directory|folder|app|code|tree|project))?)?"
    rf"\s+(?:(?:else|still|ever|actually|now)\s+)?{_VERB}\s+",
)
# Cues after which a later "with/by/to/in favour of Y" names the replacement, present.
REPLACEMENT_CUES = (
    r"\breplaced\s+",
    r"\b(?:moved|migrated|switched|transitioned|went|changed|converted)\s+(?:away\s+)?"
    r"(?:off(?:\s+of)?|from)\s+",
    # "switched to duckdb from sqlite3": the negated thing follows the "from".
    r"\b(?:moved|migrated|switched|transitioned|went|changed|converted)\s+[^,;]{0,80}?"
    r"\bfrom\s+",
)
# Weak cues negate only package-like names: "not X", "no X", "without X" are too loose
# for paths or env names ("starts without DATABASE_URL" is not a claim the code never reads it).
WEAK_NEGATION_CUES = (
    r"\bno\s+(?:more\s+)?",
    r"\bnot\s+(?!only\b|just\b|merely\b|simply\b|necessarily\b)",
    r"\bwithout\s+",
    r"\bneither\s+",
    r"\bnor\s+",
    r"\binstead\s+of\s+",
    r"\brather\s+than\s+",
)
# Bare negators: they govern a verb, not a name ("don't parse yaml by hand"), so they
# negate nothing themselves, but what follows them in the clause is no plain statement.
NEGATION_MARKERS = (r"n[’']t\b", r"\bnever\b", r"\bno\s+longer\b", r"\bnot\b")
# "X was removed", "X is no longer used": matched right after the candidate.
_GONE = (
    r"(?:used|needed|imported|required|installed|read|called|a\s+dependency|in\s+use|"
    r"present|supported|included|shipped|bundled|declared)\b"
)
_AUX = (
    r"^\s*(?:(?:" + "|".join(sorted(GENERIC_NOUNS)) + r")\s+)?"
    # an auxiliary is required: "we dropped redis" must not read as "we [were] dropped"
    r"(?:is|are|was|were|has|have|had|got|gets|'s|’s)\s*"
    r"(?:(?:now|also|since|been|completely|fully|entirely|finally|already|being)\s+)*"
)
_REMOVED = (
    r"(?:removed|dropped|deleted|gone|ripped\s+out|phased\s+out|retired|uninstalled|"
    r"eliminated|abandoned|ditched)\b"
)
_UNUSED = rf"(?:(?:(?:not|n[’']t|no\s+longer)\s+(?:being\s+)?{_GONE})|replaced\b|unused\b)"
# Right after the candidate: "X was removed", "X is gone", "X no longer exists".
POST_REMOVAL = (
    rf"{_AUX}{_REMOVED}|^\s*(?:no\s+longer\s+exists?|(?:does|do)\s*(?:not|n[’']t)\s+exist)\b"
)
# Right after the candidate: "X is no longer used", "X isn't imported", "X was replaced".
POST_UNUSED = (
    rf"{_AUX}{_UNUSED}"
    # "redis no longer used" (notes drop the auxiliary), but not "X no longer reads Y"
    rf"|^\s*no\s+longer\s+{_GONE}"
)
# The same, anywhere in a clause: "the legacy sqlite3 report was deleted" says nothing
# about sqlite3 itself, so names before it are not plain statements.
POST_ANYWHERE = (
    r"\b(?:is|are|was|were|has|have|had|got|gets)\s*"
    rf"(?:(?:now|also|since|been|completely|fully|entirely|finally|already|being)\s+)*"
    rf"(?:{_REMOVED}|{_UNUSED})|\bno\s+longer\s+exists?\b"
)

# After a negated name, a qualifier that makes the negation partial: "we no longer use
# redis for sessions" may keep redis for queues, so no repository-wide absence follows;
# "nothing imports X at runtime" may still import it for type checking or in tests.
# Time ("in 2023"), the whole codebase, the environment and "in favour of" do not narrow it.
PARTIAL_QUALIFIER = (
    r"\b(?P<q>for|from|in|inside|within|outside|directly|during|on|as|except|via|through|"
    r"when|unless|only|at(?=\s+(?:run|import|build|start|test|deploy|load)))\b(?!\s+(?:\d|favou?r\b|env(?:ironment)?\b|(?:the|this|our|its)\s+"
    r"(?:code|codebase|repo|repository|project|dependencies|dependency\s+list|requirements|"
    r"manifest|pyproject(?:\.toml)?|lock\s*file|install|stack|env|environment)\b))"
)

# Modal, conditional and planning language: what follows is not a fact about the code now.
HYPOTHETICAL_CUES = (
    r"\b(?:might|may|could|would|should|maybe|perhaps|possibly|potentially|ideally|"
    r"hopefully)\b",
    r"\b(?:we|i|you|they|team)\s*(?:will|'ll|’ll|shall|'d|’d|are\s+going\s+to|"
    r"'re\s+going\s+to|’re\s+going\s+to|am\s+going\s+to|intend|want|wanna|hope|wish|aim)\b",
    r"\bplan(?:s|ned|ning)?\s+(?:to|on)\b",
    r"\b(?:consider(?:s|ed|ing)?|thinking\s+(?:about|of)|propos(?:e|ed|es|ing|al)|"
    r"suggest(?:s|ed|ion|ing)?|evaluat(?:e|es|ed|ing)|explor(?:e|es|ed|ing)|"
    r"prototyp\w*|experiment(?:ing|ed)?\s+with|roadmap|todo|someday|eventually|"
    r"tr(?:y|ies|ied|ying)|wish|hope)\b",
    r"\bin\s+the\s+future\b",
    r"\bnext\s+(?:week|month|quarter|year|sprint|release|version)\b",
    r"\b(?:if|unless|whether|once|when|what\s+if)\s+(?:we|i|you|they|someone|somebody|ever)\b",
    r"\bif\s+ever\b",
    # "if pysqlite3 is installed it is used": an optional package, no claim that it is
    r"\b(?:if|when|unless|whether)\s+\S+\s+(?:is|are|happens\s+to\s+be)\s+(?:installed|"
    r"available|present|importable)\b",
)

# Other people's code: a fact about it is not a fact about this repository.
OTHER_PARTY_CUES = (
    r"\b(?:friend|friends|colleague|colleagues|coworker|coworkers|co-worker|boss|"
    r"client's|customer's|neighbou?r)\b",
    r"\b(?:their|theirs)\b",
    r"\bthey\s+(?:use|used|uses|are\s+using|'re\s+using|import|depend)\b",
    # ("fetches from the upstream server", "syncs with upstream": what the code talks to)
    r"(?<!\bfrom\s)(?<!\bfrom\sthe\s)(?<!\bto\s)(?<!\bto\sthe\s)(?<!\bwith\s)"
    r"(?<!\bwith\sthe\s)(?<!\bagainst\s)(?<!\bagainst\sthe\s)\bupstream\b",
    r"\b(?:fork|forks)\s+of\b",
    r"\b(?:another|other|someone\s+else's|somebody\s+else's)\s+(?:project|team|repo|"
    r"repository|company|codebase|service)\b",
    r"\bthird[-\s]party\b",
    r"\b(?:at|in)\s+(?:my|our)\s+(?:last|previous|old|former)\s+(?:job|company|team|"
    r"project)\b",
    r"\b(?:most|many|some)\s+(?:people|projects|teams|codebases)\b",
    r"\bin\s+general\b",
    r"\btutorial\b",
)

# Words right before a name that make it a claimed dependency/import ("we use |X").
USAGE_SLOT = (
    r"\b(?:use|uses|used|using|import|imports|imported|adopt|adopts|adopted|adopting|add|"
    r"added|install|installs|installed|require|requires|switch(?:ed|ing)?\s+to|need|needs|"
    r"mov(?:e|ed)\s+to|migrat(?:e|ed)\s+to|depend(?:s|ed)?\s+on|rel(?:y|ies|ied)\s+on|"
    r"powered\s+by|built\s+on|backed\s+by|consider(?:ing)?|tr(?:y|ying|ied)|"
    r"evaluat(?:e|ing)|with|via|through|runs?\s+(?:on|under|in)|ran\s+on|on\s+top\s+of|"
    r"go(?:es)?\s+(?:to|through)|sent\s+(?:to|through|via)|stored\s+in|hosted\s+on|"
    r"deployed\s+(?:with|to|on)|handled\s+by|managed\s+by|parsed\s+by|written\s+in|"
    r"[a-z]+ed\s+(?:in|with|by|via|through|on|to|using))"
    r"\s+(?:(?:the|a|an)\s+)?$"
)

# Verbs after which the words before them are a sentence's subject ("billing |uses| httpx").
SUBJECT_VERBS = _words(
    """uses use used imports import imported reads read calls call checks check depends
    relies needs loads writes opens connects stores sends handles defines talks verifies
    validates parses runs wraps exposes serves owns is are was were has have had no doesn't
    does did don't never still now also only gets returns creates builds fetches posts
    queries caches logs emits raises accepts requires contains lives sits holds keeps stopped
    dropped removed switched moved migrated replaced should might will can must
    run go goes went live lives sit sits ship shipped send sent talk talks come comes
    render renders rendered format formats formatted round rounds rounded retry retries
    retried wrap wrapped serve served expose exposed store stored parse parsed load loaded
    build built deploy deploys deployed publish publishes published upload uploads uploaded
    log logged handle handled support supported provide provides provided print prints
    printed show shows shown generate generates generated compute computes computed
    sign signs signed hash hashes hashed encode encodes encoded decode decodes decoded
    validate validated check checked lint lints linted test tests tested schedule
    schedules scheduled queue queues queued cache cached connect connected fetch fetched
    write wrote written read"""
)

# Right before a name: it is compared with or modelled on, not used ("an API compatible with
# requests", "unlike celery"). The name gets no anchor either way.
NOT_A_USE_CUES = (
    r"\b(?:compatible|compatibility)\s+with\s+",
    r"\bsimilar\s+to\s+",
    r"\binspired\s+by\s+",
    r"\bmodell?ed\s+(?:on|after)\s+",
    r"\bcompared\s+(?:to|with)\s+",
    r"\b(?:an\s+)?alternatives?\s+to\s+",
    r"\bunlike\s+",
    r"\b(?:a\s+)?(?:port|fork|clone)\s+of\s+",
    r"\b(?:mimics|mirrors|emulates)\s+",
    r"\bborrowed\s+from\s+",
    r"\bin\s+the\s+style\s+of\s+",
)

# A stronger slot, required of a technology whose name is also an ordinary word ("with
# coverage from pytest-cov" names no Coverage.py; "we use black" names the formatter).
STRONG_SLOT = (
    r"\b(?:use|uses|used|using|import|imports|imported|adopt|adopts|adopted|install|installs|"
    r"installed|require|requires|switch(?:ed|ing)?\s+to|mov(?:e|ed)\s+to|migrat(?:e|ed)\s+to|"
    r"depend(?:s|ed)?\s+on|rel(?:y|ies|ied)\s+on|powered\s+by|built\s+(?:on|with)|"
    r"backed\s+by|runs?\s+on|[a-z]+ed\s+(?:with|by|via|through|using))\s+(?:(?:the|a|an)\s+)?$"
)
