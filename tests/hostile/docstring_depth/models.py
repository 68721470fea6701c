"""Scenarios whose docstrings nest deeper than a parser recurses"""
# ruff: noqa: E501  (the nesting is the case)

from dataclasses import dataclass


@dataclass(frozen=True)
class Quoted:
    """A 200-level block quote follows.

    level 0  # <- refgen

      level 1

        level 2

          level 3

            level 4

              level 5

                level 6

                  level 7

                    level 8

                      level 9

                        level 10

                          level 11

                            level 12

                              level 13

                                level 14

                                  level 15

                                    level 16

                                      level 17

                                        level 18

                                          level 19

                                            level 20

                                              level 21

                                                level 22

                                                  level 23

                                                    level 24

                                                      level 25

                                                        level 26

                                                          level 27

                                                            level 28

                                                              level 29

                                                                level 30

                                                                  level 31

                                                                    level 32

                                                                      level 33

                                                                        level 34

                                                                          level 35

                                                                            level 36

                                                                              level 37

                                                                                level 38

                                                                                  level 39

                                                                                    level 40

                                                                                      level 41

                                                                                        level 42

                                                                                          level 43

                                                                                            level 44

                                                                                              level 45

                                                                                                level 46

                                                                                                  level 47

                                                                                                    level 48

                                                                                                      level 49

                                                                                                        level 50

                                                                                                          level 51

                                                                                                            level 52

                                                                                                              level 53

                                                                                                                level 54

                                                                                                                  level 55

                                                                                                                    level 56

                                                                                                                      level 57

                                                                                                                        level 58

                                                                                                                          level 59

                                                                                                                            level 60

                                                                                                                              level 61

                                                                                                                                level 62

                                                                                                                                  level 63

                                                                                                                                    level 64

                                                                                                                                      level 65

                                                                                                                                        level 66

                                                                                                                                          level 67

                                                                                                                                            level 68

                                                                                                                                              level 69

                                                                                                                                                level 70

                                                                                                                                                  level 71

                                                                                                                                                    level 72

                                                                                                                                                      level 73

                                                                                                                                                        level 74

                                                                                                                                                          level 75

                                                                                                                                                            level 76

                                                                                                                                                              level 77

                                                                                                                                                                level 78

                                                                                                                                                                  level 79

                                                                                                                                                                    level 80

                                                                                                                                                                      level 81

                                                                                                                                                                        level 82

                                                                                                                                                                          level 83

                                                                                                                                                                            level 84

                                                                                                                                                                              level 85

                                                                                                                                                                                level 86

                                                                                                                                                                                  level 87

                                                                                                                                                                                    level 88

                                                                                                                                                                                      level 89

                                                                                                                                                                                        level 90

                                                                                                                                                                                          level 91

                                                                                                                                                                                            level 92

                                                                                                                                                                                              level 93

                                                                                                                                                                                                level 94

                                                                                                                                                                                                  level 95

                                                                                                                                                                                                    level 96

                                                                                                                                                                                                      level 97

                                                                                                                                                                                                        level 98

                                                                                                                                                                                                          level 99

                                                                                                                                                                                                            level 100

                                                                                                                                                                                                              level 101

                                                                                                                                                                                                                level 102

                                                                                                                                                                                                                  level 103

                                                                                                                                                                                                                    level 104

                                                                                                                                                                                                                      level 105

                                                                                                                                                                                                                        level 106

                                                                                                                                                                                                                          level 107

                                                                                                                                                                                                                            level 108

                                                                                                                                                                                                                              level 109

                                                                                                                                                                                                                                level 110

                                                                                                                                                                                                                                  level 111

                                                                                                                                                                                                                                    level 112

                                                                                                                                                                                                                                      level 113

                                                                                                                                                                                                                                        level 114

                                                                                                                                                                                                                                          level 115

                                                                                                                                                                                                                                            level 116

                                                                                                                                                                                                                                              level 117

                                                                                                                                                                                                                                                level 118

                                                                                                                                                                                                                                                  level 119

                                                                                                                                                                                                                                                    level 120

                                                                                                                                                                                                                                                      level 121

                                                                                                                                                                                                                                                        level 122

                                                                                                                                                                                                                                                          level 123

                                                                                                                                                                                                                                                            level 124

                                                                                                                                                                                                                                                              level 125

                                                                                                                                                                                                                                                                level 126

                                                                                                                                                                                                                                                                  level 127

                                                                                                                                                                                                                                                                    level 128

                                                                                                                                                                                                                                                                      level 129

                                                                                                                                                                                                                                                                        level 130

                                                                                                                                                                                                                                                                          level 131

                                                                                                                                                                                                                                                                            level 132

                                                                                                                                                                                                                                                                              level 133

                                                                                                                                                                                                                                                                                level 134

                                                                                                                                                                                                                                                                                  level 135

                                                                                                                                                                                                                                                                                    level 136

                                                                                                                                                                                                                                                                                      level 137

                                                                                                                                                                                                                                                                                        level 138

                                                                                                                                                                                                                                                                                          level 139

                                                                                                                                                                                                                                                                                            level 140

                                                                                                                                                                                                                                                                                              level 141

                                                                                                                                                                                                                                                                                                level 142

                                                                                                                                                                                                                                                                                                  level 143

                                                                                                                                                                                                                                                                                                    level 144

                                                                                                                                                                                                                                                                                                      level 145

                                                                                                                                                                                                                                                                                                        level 146

                                                                                                                                                                                                                                                                                                          level 147

                                                                                                                                                                                                                                                                                                            level 148

                                                                                                                                                                                                                                                                                                              level 149

                                                                                                                                                                                                                                                                                                                level 150

                                                                                                                                                                                                                                                                                                                  level 151

                                                                                                                                                                                                                                                                                                                    level 152

                                                                                                                                                                                                                                                                                                                      level 153

                                                                                                                                                                                                                                                                                                                        level 154

                                                                                                                                                                                                                                                                                                                          level 155

                                                                                                                                                                                                                                                                                                                            level 156

                                                                                                                                                                                                                                                                                                                              level 157

                                                                                                                                                                                                                                                                                                                                level 158

                                                                                                                                                                                                                                                                                                                                  level 159

                                                                                                                                                                                                                                                                                                                                    level 160

                                                                                                                                                                                                                                                                                                                                      level 161

                                                                                                                                                                                                                                                                                                                                        level 162

                                                                                                                                                                                                                                                                                                                                          level 163

                                                                                                                                                                                                                                                                                                                                            level 164

                                                                                                                                                                                                                                                                                                                                              level 165

                                                                                                                                                                                                                                                                                                                                                level 166

                                                                                                                                                                                                                                                                                                                                                  level 167

                                                                                                                                                                                                                                                                                                                                                    level 168

                                                                                                                                                                                                                                                                                                                                                      level 169

                                                                                                                                                                                                                                                                                                                                                        level 170

                                                                                                                                                                                                                                                                                                                                                          level 171

                                                                                                                                                                                                                                                                                                                                                            level 172

                                                                                                                                                                                                                                                                                                                                                              level 173

                                                                                                                                                                                                                                                                                                                                                                level 174

                                                                                                                                                                                                                                                                                                                                                                  level 175

                                                                                                                                                                                                                                                                                                                                                                    level 176

                                                                                                                                                                                                                                                                                                                                                                      level 177

                                                                                                                                                                                                                                                                                                                                                                        level 178

                                                                                                                                                                                                                                                                                                                                                                          level 179

                                                                                                                                                                                                                                                                                                                                                                            level 180

                                                                                                                                                                                                                                                                                                                                                                              level 181

                                                                                                                                                                                                                                                                                                                                                                                level 182

                                                                                                                                                                                                                                                                                                                                                                                  level 183

                                                                                                                                                                                                                                                                                                                                                                                    level 184

                                                                                                                                                                                                                                                                                                                                                                                      level 185

                                                                                                                                                                                                                                                                                                                                                                                        level 186

                                                                                                                                                                                                                                                                                                                                                                                          level 187

                                                                                                                                                                                                                                                                                                                                                                                            level 188

                                                                                                                                                                                                                                                                                                                                                                                              level 189

                                                                                                                                                                                                                                                                                                                                                                                                level 190

                                                                                                                                                                                                                                                                                                                                                                                                  level 191

                                                                                                                                                                                                                                                                                                                                                                                                    level 192

                                                                                                                                                                                                                                                                                                                                                                                                      level 193

                                                                                                                                                                                                                                                                                                                                                                                                        level 194

                                                                                                                                                                                                                                                                                                                                                                                                          level 195

                                                                                                                                                                                                                                                                                                                                                                                                            level 196

                                                                                                                                                                                                                                                                                                                                                                                                              level 197

                                                                                                                                                                                                                                                                                                                                                                                                                level 198

                                                                                                                                                                                                                                                                                                                                                                                                                  level 199
    """

    size: float = 2.0
    """The size."""


@dataclass(frozen=True)
class Listed:
    """About 150 nested bullets, in an input's description."""

    size: float = 2.0
    """The size, in nested bullets:

    - item 0

      - item 1

        - item 2

          - item 3

            - item 4

              - item 5

                - item 6

                  - item 7

                    - item 8

                      - item 9

                        - item 10

                          - item 11

                            - item 12

                              - item 13

                                - item 14

                                  - item 15

                                    - item 16

                                      - item 17

                                        - item 18

                                          - item 19

                                            - item 20

                                              - item 21

                                                - item 22

                                                  - item 23

                                                    - item 24

                                                      - item 25

                                                        - item 26

                                                          - item 27

                                                            - item 28

                                                              - item 29

                                                                - item 30

                                                                  - item 31

                                                                    - item 32

                                                                      - item 33

                                                                        - item 34

                                                                          - item 35

                                                                            - item 36

                                                                              - item 37

                                                                                - item 38

                                                                                  - item 39

                                                                                    - item 40

                                                                                      - item 41

                                                                                        - item 42

                                                                                          - item 43

                                                                                            - item 44

                                                                                              - item 45

                                                                                                - item 46

                                                                                                  - item 47

                                                                                                    - item 48

                                                                                                      - item 49

                                                                                                        - item 50

                                                                                                          - item 51

                                                                                                            - item 52

                                                                                                              - item 53

                                                                                                                - item 54

                                                                                                                  - item 55

                                                                                                                    - item 56

                                                                                                                      - item 57

                                                                                                                        - item 58

                                                                                                                          - item 59

                                                                                                                            - item 60

                                                                                                                              - item 61

                                                                                                                                - item 62

                                                                                                                                  - item 63

                                                                                                                                    - item 64

                                                                                                                                      - item 65

                                                                                                                                        - item 66

                                                                                                                                          - item 67

                                                                                                                                            - item 68

                                                                                                                                              - item 69

                                                                                                                                                - item 70

                                                                                                                                                  - item 71

                                                                                                                                                    - item 72

                                                                                                                                                      - item 73

                                                                                                                                                        - item 74

                                                                                                                                                          - item 75

                                                                                                                                                            - item 76

                                                                                                                                                              - item 77

                                                                                                                                                                - item 78

                                                                                                                                                                  - item 79

                                                                                                                                                                    - item 80

                                                                                                                                                                      - item 81

                                                                                                                                                                        - item 82

                                                                                                                                                                          - item 83

                                                                                                                                                                            - item 84

                                                                                                                                                                              - item 85

                                                                                                                                                                                - item 86

                                                                                                                                                                                  - item 87

                                                                                                                                                                                    - item 88

                                                                                                                                                                                      - item 89

                                                                                                                                                                                        - item 90

                                                                                                                                                                                          - item 91

                                                                                                                                                                                            - item 92

                                                                                                                                                                                              - item 93

                                                                                                                                                                                                - item 94

                                                                                                                                                                                                  - item 95

                                                                                                                                                                                                    - item 96

                                                                                                                                                                                                      - item 97

                                                                                                                                                                                                        - item 98

                                                                                                                                                                                                          - item 99

                                                                                                                                                                                                            - item 100

                                                                                                                                                                                                              - item 101

                                                                                                                                                                                                                - item 102

                                                                                                                                                                                                                  - item 103

                                                                                                                                                                                                                    - item 104

                                                                                                                                                                                                                      - item 105

                                                                                                                                                                                                                        - item 106

                                                                                                                                                                                                                          - item 107

                                                                                                                                                                                                                            - item 108

                                                                                                                                                                                                                              - item 109

                                                                                                                                                                                                                                - item 110

                                                                                                                                                                                                                                  - item 111

                                                                                                                                                                                                                                    - item 112

                                                                                                                                                                                                                                      - item 113

                                                                                                                                                                                                                                        - item 114

                                                                                                                                                                                                                                          - item 115

                                                                                                                                                                                                                                            - item 116

                                                                                                                                                                                                                                              - item 117

                                                                                                                                                                                                                                                - item 118

                                                                                                                                                                                                                                                  - item 119

                                                                                                                                                                                                                                                    - item 120

                                                                                                                                                                                                                                                      - item 121

                                                                                                                                                                                                                                                        - item 122

                                                                                                                                                                                                                                                          - item 123

                                                                                                                                                                                                                                                            - item 124

                                                                                                                                                                                                                                                              - item 125

                                                                                                                                                                                                                                                                - item 126

                                                                                                                                                                                                                                                                  - item 127

                                                                                                                                                                                                                                                                    - item 128

                                                                                                                                                                                                                                                                      - item 129

                                                                                                                                                                                                                                                                        - item 130

                                                                                                                                                                                                                                                                          - item 131

                                                                                                                                                                                                                                                                            - item 132

                                                                                                                                                                                                                                                                              - item 133

                                                                                                                                                                                                                                                                                - item 134

                                                                                                                                                                                                                                                                                  - item 135

                                                                                                                                                                                                                                                                                    - item 136

                                                                                                                                                                                                                                                                                      - item 137

                                                                                                                                                                                                                                                                                        - item 138

                                                                                                                                                                                                                                                                                          - item 139

                                                                                                                                                                                                                                                                                            - item 140

                                                                                                                                                                                                                                                                                              - item 141

                                                                                                                                                                                                                                                                                                - item 142

                                                                                                                                                                                                                                                                                                  - item 143

                                                                                                                                                                                                                                                                                                    - item 144

                                                                                                                                                                                                                                                                                                      - item 145

                                                                                                                                                                                                                                                                                                        - item 146

                                                                                                                                                                                                                                                                                                          - item 147

                                                                                                                                                                                                                                                                                                            - item 148

                                                                                                                                                                                                                                                                                                              - item 149
    """

    @property
    def doubled(self) -> float:
        """Twice the size."""
        return self.size * 2
