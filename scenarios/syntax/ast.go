package syntax

// Observation is herd7's word for how often a condition holds over the
// final states: Never, Sometimes or Always.
type Observation string

// The three observations.
const (
	Never     Observation = "Never"
	Sometimes Observation = "Sometimes"
	Always    Observation = "Always"
)

// Metadata is what a scenario's leading comment says about it, in
// "Key: value" lines (see FORMAT.md).
type Metadata struct {
	Result  Observation // expected LKMM verdict of the final clause; "" if not given
	Title   string
	Source  string
	Story   string
	Variant string
	Family  string
	// Note keeps what a comment said that is not metadata smpscope uses:
	// a Result that is not Never, Sometimes or Always ("Result: DEADLOCK"),
	// the words after the verdict ("Result: Sometimes P0 GRR: ..."), and
	// keys given more than once. Notes are joined with "; ".
	Note string
}

// Scenario is a parsed C litmus test.
type Scenario struct {
	File    string   // file name given to Parse (for messages)
	Name    string   // the name after "C"
	NamePos Position // position of the "C"

	// Header holds the comments before the initial-state block, verbatim.
	// Meta is derived from them.
	Header []Comment
	Meta   Metadata

	InitPos     Position // the "{" of the initial-state block
	Init        []*InitDecl
	InitEnd     []Comment // comments before the closing "}" of the block
	Threads     []*Thread
	Regions     *RegionsClause   // nil if absent
	Locations   *LocationsClause // nil if absent
	Filter      *FilterClause    // nil if absent
	Final       *FinalClause
	EndComments []Comment // comments after the final clause
}

// InitDecl is one entry of the initial-state block: "x=1;", "int y=2;",
// "int *p=x;", "spinlock_t l;", "atomic_t v = ATOMIC_INIT(1);".
type InitDecl struct {
	Pos   Position
	Type  string // "" when untyped ("x=1;")
	Stars int    // pointer level of the declared variable
	Name  string
	// IsReg marks a register's initial value, "0:r1=1;" or "int *1:r0;":
	// Name is then register Name of thread Thread (Thread is -1 for a
	// location). Bracket marks a location written "[x]".
	IsReg   bool
	Thread  int
	Bracket bool
	// Value is nil (no initialiser), an integer (*IntLit, or *UnaryExpr "-"
	// of one), a location name (*Ident, its address), "&name" (*UnaryExpr
	// "&" of an *Ident) or ATOMIC_INIT(n) (*CallExpr).
	Value Expr
	Lead  []Comment // comments on the lines before the declaration
	Trail []Comment // comments after it on its last line
}

// Thread is one function P0, P1, ...
type Thread struct {
	Pos    Position
	Void   bool // written "void P0(...)"
	Name   string
	Params []*Param
	Body   []Stmt
	Lead   []Comment
	Trail  []Comment // after the ")" of the header, e.g. "// Producer"
	End    []Comment // before the closing "}"
}

// Param is a function parameter "int *x": the address of location x.
type Param struct {
	Pos   Position
	Type  string
	Stars int
	Name  string
}

// Stmt is a statement in a thread body.
type Stmt interface {
	Node
	stmtNode()
	Start() Position
	comments() *stmtComments
}

// stmtComments are the comments attached to a statement.
type stmtComments struct {
	Lead  []Comment
	Trail []Comment
}

func (c *stmtComments) comments() *stmtComments { return c }

// DeclStmt declares one register: "int r0;", "int *r1 = READ_ONCE(*x);".
// "int a, b;" is parsed as two DeclStmts.
type DeclStmt struct {
	Pos   Position
	Type  string
	Stars int
	Name  string
	Init  Expr // nil if none
	stmtComments
}

// ExprStmt is an expression used as a statement, e.g. a call.
type ExprStmt struct {
	X Expr
	stmtComments
}

// AssignStmt is "lhs op rhs;" with op one of = += -= *= /= %= &= |= ^= <<= >>=.
type AssignStmt struct {
	LHS   Expr
	Op    string
	OpPos Position
	RHS   Expr
	stmtComments
}

// IncDecStmt is "r++;", "r--;", "++r;" or "--r;".
type IncDecStmt struct {
	Pos    Position
	X      Expr
	Op     string // "++" or "--"
	Prefix bool
	stmtComments
}

// IfStmt is "if (cond) then [else els]".
type IfStmt struct {
	Pos  Position
	Cond Expr
	Then Stmt
	Else Stmt // nil if none
	stmtComments
}

// BlockStmt is "{ ... }".
type BlockStmt struct {
	Pos  Position
	List []Stmt
	End  []Comment // before the closing "}"
	stmtComments
}

// EmptyStmt is a lone ";".
type EmptyStmt struct {
	Pos Position
	stmtComments
}

func (*DeclStmt) stmtNode()   {}
func (*ExprStmt) stmtNode()   {}
func (*AssignStmt) stmtNode() {}
func (*IncDecStmt) stmtNode() {}
func (*IfStmt) stmtNode()     {}
func (*BlockStmt) stmtNode()  {}
func (*EmptyStmt) stmtNode()  {}

// Start returns the position of the statement's first token.
func (s *DeclStmt) Start() Position { return s.Pos }

// Start returns the position of the statement's first token.
func (s *ExprStmt) Start() Position { return s.X.Pos() }

// Start returns the position of the statement's first token.
func (s *AssignStmt) Start() Position { return s.LHS.Pos() }

// Start returns the position of the statement's first token.
func (s *IncDecStmt) Start() Position { return s.Pos }

// Start returns the position of the statement's first token.
func (s *IfStmt) Start() Position { return s.Pos }

// Start returns the position of the statement's first token.
func (s *BlockStmt) Start() Position { return s.Pos }

// Start returns the position of the statement's first token.
func (s *EmptyStmt) Start() Position { return s.Pos }

// Expr is a C expression.
type Expr interface {
	Node
	exprNode()
	Pos() Position
}

// Ident is a name: a register, a parameter (the address of a location), or
// a function name in a call.
type Ident struct {
	NamePos Position
	Name    string
}

// IntLit is an integer literal. Text keeps its spelling (0x10, 1UL).
type IntLit struct {
	ValuePos Position
	Value    int64
	Text     string
}

// UnaryExpr is "op X" for op one of - + ! ~ * &.
type UnaryExpr struct {
	OpPos Position
	Op    string
	X     Expr
}

// BinaryExpr is "X op Y".
type BinaryExpr struct {
	X     Expr
	OpPos Position
	Op    string
	Y     Expr
}

// CallExpr is "Fun(Args...)"; Fun is one of the supported primitives.
// herd7's internal forms keep their annotations in the name
// ("__xchg{mb}"); Bare marks one written without parentheses
// ("__fence{mb};").
type CallExpr struct {
	Fun  *Ident
	Args []Expr
	Bare bool
}

// TernaryExpr is "X ? Then : Else".
type TernaryExpr struct {
	X           Expr
	QuestionPos Position
	Then, Else  Expr
}

// ParenExpr is "(X)", kept so that Format writes what the author wrote.
type ParenExpr struct {
	Lparen Position
	X      Expr
}

// CastExpr is "(Type *...)X". Casts do not change values.
type CastExpr struct {
	Lparen Position
	Type   string
	Stars  int
	X      Expr
}

func (*Ident) exprNode()       {}
func (*IntLit) exprNode()      {}
func (*UnaryExpr) exprNode()   {}
func (*BinaryExpr) exprNode()  {}
func (*CallExpr) exprNode()    {}
func (*ParenExpr) exprNode()   {}
func (*CastExpr) exprNode()    {}
func (*TernaryExpr) exprNode() {}

// Pos returns the position of the expression's first token.
func (e *TernaryExpr) Pos() Position { return e.X.Pos() }

// Pos returns the position of the expression's first token.
func (e *Ident) Pos() Position { return e.NamePos }

// Pos returns the position of the expression's first token.
func (e *IntLit) Pos() Position { return e.ValuePos }

// Pos returns the position of the expression's first token.
func (e *UnaryExpr) Pos() Position { return e.OpPos }

// Pos returns the position of the expression's first token.
func (e *BinaryExpr) Pos() Position { return e.X.Pos() }

// Pos returns the position of the expression's first token.
func (e *CallExpr) Pos() Position { return e.Fun.NamePos }

// Pos returns the position of the expression's first token.
func (e *ParenExpr) Pos() Position { return e.Lparen }

// Pos returns the position of the expression's first token.
func (e *CastExpr) Pos() Position { return e.Lparen }

// FinalKind is the quantifier of the final clause.
type FinalKind uint8

// Final clause kinds.
const (
	Exists    FinalKind = iota // exists: some final state satisfies the condition
	NotExists                  // ~exists: no final state does
	Forall                     // forall: every final state does
)

// String returns the clause's keyword: exists, ~exists or forall.
func (k FinalKind) String() string {
	switch k {
	case NotExists:
		return "~exists"
	case Forall:
		return "forall"
	}
	return "exists"
}

// FinalClause is "exists (cond)", "~exists (cond)" or "forall (cond)".
type FinalClause struct {
	Pos   Position
	Kind  FinalKind
	Cond  Cond
	Lead  []Comment
	Trail []Comment
}

// FilterClause is "filter (cond)": final states that do not satisfy it are
// left out of the verdict.
type FilterClause struct {
	Pos   Position
	Cond  Cond
	Lead  []Comment
	Trail []Comment
}

// RegionsClause is herd7's "regions: x:PROP, y:NOPROP", which assigns
// memory regions for models that have them. The LKMM has none, so it is
// kept for Format and otherwise ignored.
type RegionsClause struct {
	Pos   Position
	Items []string // "x:PROP"
	Lead  []Comment
	Trail []Comment
}

// LocationsClause is "locations [0:r1; x]": extra things to show in
// outcomes.
type LocationsClause struct {
	Pos   Position
	Items []*CondLoc
	Lead  []Comment
	Trail []Comment
}

// Cond is a proposition over a final state.
type Cond interface {
	Node
	condNode()
	Pos() Position
}

// CondAnd is "X /\ Y".
type CondAnd struct{ X, Y Cond }

// CondOr is "X \/ Y".
type CondOr struct{ X, Y Cond }

// CondNot is "~X", or "not X" when Word is set.
type CondNot struct {
	TildePos Position
	X        Cond
	Word     bool
}

// CondImplies is "X => Y".
type CondImplies struct{ X, Y Cond }

// CondParen is "(X)".
type CondParen struct {
	Lparen Position
	X      Cond
}

// CondBool is "true" or "false".
type CondBool struct {
	ValuePos Position
	Value    bool
}

// CondAtom compares a register or location with a value: "0:r0=1",
// "x=2", "1:r0=x" (x's address), "0:r1!=0".
type CondAtom struct {
	Loc *CondLoc
	Op  string // "=", "==" or "!="
	Val *CondValue
}

// CondLoc names a register of a thread ("0:r0", Thread 0) or a location
// ("x", Thread -1; "[x]" when Bracket is set).
type CondLoc struct {
	NamePos Position
	Thread  int
	Name    string
	Bracket bool
}

// CondValue is an integer, the address of a named location, or (as herd7
// allows) the value of a register or location: "0:r1=1:r2", "x=[y]".
type CondValue struct {
	ValuePos Position
	Loc      string   // non-empty: the address of this location
	Ref      *CondLoc // non-nil: the value of this register or location
	Int      int64
}

func (*CondAnd) condNode()     {}
func (*CondOr) condNode()      {}
func (*CondNot) condNode()     {}
func (*CondImplies) condNode() {}

// Pos returns the position of the condition's first token.
func (c *CondImplies) Pos() Position { return c.X.Pos() }
func (*CondParen) condNode()         {}
func (*CondBool) condNode()          {}
func (*CondAtom) condNode()          {}

// Pos returns the position of the condition's first token.
func (c *CondAnd) Pos() Position { return c.X.Pos() }

// Pos returns the position of the condition's first token.
func (c *CondOr) Pos() Position { return c.X.Pos() }

// Pos returns the position of the condition's first token.
func (c *CondNot) Pos() Position { return c.TildePos }

// Pos returns the position of the condition's first token.
func (c *CondParen) Pos() Position { return c.Lparen }

// Pos returns the position of the condition's first token.
func (c *CondBool) Pos() Position { return c.ValuePos }

// Pos returns the position of the condition's first token.
func (c *CondAtom) Pos() Position { return c.Loc.NamePos }

// IsReg reports whether l names a thread's register.
func (l *CondLoc) IsReg() bool { return l.Thread >= 0 }
